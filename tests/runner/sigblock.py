#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later
# Block SIGTERM and SIGUSR1, then exec the arguments (the mask survives
# execve). Test helper of live-caller.sh.
import os
import signal
import sys

signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM, signal.SIGUSR1})
os.execv(sys.argv[1], sys.argv[1:])
