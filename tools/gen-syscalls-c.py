#!/usr/bin/env python3
import sys
open(sys.argv[-1], 'w').write('/* placeholder */\nextern int scmp_run_placeholder_sc;\n')
