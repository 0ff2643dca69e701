# SPDX-License-Identifier: LGPL-2.1-or-later
# fish completion for scmp-run: options, profile names, architectures, groups
# and syscalls; after the command word, the command's own completion.

# Print the index (1-based, in `commandline -opc`) of the first non-option
# word after scmp-run, where scmp-run stops parsing options; fail if none.
function __scmp_run_command_index
    set -l tokens (commandline -opc)
    set -l i 2
    while test $i -le (count $tokens)
        set -l t $tokens[$i]
        switch $t
            case --
                if test $i -lt (count $tokens)
                    echo (math $i + 1)
                    return 0
                end
                return 1
            case -p --profile --export-bpf --export-pfc --export-oci --import-oci --oci-caps --resolve --target-arch --user --group --set --learn
                set i (math $i + 2)
            case '--*'
                set i (math $i + 1)
            case '-*p'
                # -vp: p takes the next word as its argument
                set i (math $i + 2)
            case '-*'
                set i (math $i + 1)
            case '*'
                echo $i
                return 0
        end
    end
    return 1
end

# True while the cursor is on an option or the command word, not past it.
function __scmp_run_before_command
    not __scmp_run_command_index >/dev/null
end

# True when an option is on the line before the command word.
function __scmp_run_seen -a opt
    set -l tokens (commandline -opc)
    set -l end (__scmp_run_command_index; or count $tokens)
    test $end -ge 2; or return 1
    contains -- $opt $tokens[2..$end]
end

# True when a mode other than run mode is on the line: its operands (if
# any) are not a command.
function __scmp_run_other_mode
    for opt in --check --export-bpf --export-pfc --export-oci --import-oci --explain \
        --explain-path --explain-audit --resolve --list-syscalls --list-arches \
        --list-groups --list-profiles --help -h --version
        __scmp_run_seen $opt; and return 0
    end
    set -l tokens (commandline -opc)
    string match -q -- '--explain-audit=*' $tokens; and return 0
    string match -q -r -- '^--(export-[a-z]+|import-oci|resolve)=' $tokens
end

# True when the cursor is on the first word after the command (the words
# after --explain or --list-groups are not a command).
function __scmp_run_at_command
    __scmp_run_before_command; or return 1
    set -l cur (commandline -ct)
    string match -q -- '-*' $cur; and return 1
    not __scmp_run_other_mode
end

function __scmp_run_target
    set -l tokens (commandline -opc)
    set -l i (contains -i -- --target-arch $tokens); or return 0
    set -q tokens[(math $i + 1)]; and printf '%s\n' --target-arch $tokens[(math $i + 1)]
    for t in $tokens
        string match -q -- '--target-arch=*' $t; and printf '%s\n' --target-arch (string replace -- '--target-arch=' '' $t)
    end
end

# Run the scmp-run being completed (as typed: it may be a path) with ARGS.
function __scmp_run_call
    set -l prog (commandline -opc)[1]
    $prog $argv 2>/dev/null
end

function __scmp_run_syscalls
    __scmp_run_call (__scmp_run_target) --list-syscalls | string replace -r '\t.*' ''
end

function __scmp_run_groups
    __scmp_run_call --list-groups | string replace -r ' .*' ''
end

# The command and its arguments: hand over to their own completion.
function __scmp_run_complete_command
    set -l tokens (commandline -opc)
    set -l i (__scmp_run_command_index); or return
    __fish_complete_subcommand --commandline $tokens[$i..-1] (commandline -ct)
end

complete -c scmp-run -f
complete -c scmp-run -n __scmp_run_before_command -s p -l profile -r -F \
    -a '(__scmp_run_call --list-profiles)' -d 'profile file, or name to look up'
complete -c scmp-run -n __scmp_run_before_command -l check -d 'validate the profile and print a summary'
complete -c scmp-run -n __scmp_run_before_command -l strict -d 'with --check: warnings are errors'
complete -c scmp-run -n __scmp_run_before_command -l export-bpf -r -F -d 'write the program run mode would load'
complete -c scmp-run -n __scmp_run_before_command -l export-pfc -r -F -d 'write readable pseudo filter code'
complete -c scmp-run -n __scmp_run_before_command -l export-oci -r -F -d 'write the profile as OCI runtime-spec seccomp JSON'
complete -c scmp-run -n __scmp_run_before_command -l import-oci -r -F -d 'print an OCI/Docker seccomp JSON file as an INI profile'
complete -c scmp-run -n __scmp_run_before_command -l oci-caps -x -d 'capabilities the process keeps (CAP_A,CAP_B), for a JSON profile'
complete -c scmp-run -n __scmp_run_before_command -l explain -d 'print the action for SYSCALL ARG...'
complete -c scmp-run -n __scmp_run_before_command -l explain-path \
    -d 'print whether [landlock] allows PATH for ACCESS'
complete -c scmp-run -n __scmp_run_before_command -l resolve -x -a '(__scmp_run_syscalls)' \
    -d 'syscall name <-> number'
complete -c scmp-run -n __scmp_run_before_command -l list-syscalls -d 'list the syscalls of the target architecture'
complete -c scmp-run -n __scmp_run_before_command -l list-arches -d 'list the architecture tokens'
complete -c scmp-run -n __scmp_run_before_command -l list-groups -d 'list the syscall groups, or the members of @GROUP'
complete -c scmp-run -n __scmp_run_before_command -l list-profiles -d 'list the profiles found by name'
complete -c scmp-run -n __scmp_run_before_command -l target-arch -x \
    -a '(__scmp_run_call --list-arches)' -d 'compile for ARCH (not in run mode)'
complete -c scmp-run -n __scmp_run_before_command -l user -x -a '(__fish_complete_users)' \
    -d 'run as USER instead of the user of the profile'
complete -c scmp-run -n __scmp_run_before_command -l group -x -a '(__fish_complete_groups)' \
    -d 'run as GROUP instead of the group of the profile'
complete -c scmp-run -n __scmp_run_before_command -l set -x \
    -d 'add SECTION.KEY=VALUE after the whole profile'
complete -c scmp-run -n __scmp_run_before_command -l unlisted \
    -d 'with --list-groups: the syscalls in no built-in group'
complete -c scmp-run -n __scmp_run_before_command -l report -F \
    -d 'run supervised: report denied calls (--report=FILE)'
complete -c scmp-run -n __scmp_run_before_command -l permissive -d 'run supervised: deny nothing, report'
complete -c scmp-run -n __scmp_run_before_command -l learn -r -F \
    -d 'run supervised: write a profile allowing what the command did'
complete -c scmp-run -n __scmp_run_before_command -l explain-audit -F \
    -d 'explain seccomp audit records (FILE, - or the kernel log)'
complete -c scmp-run -n __scmp_run_before_command -s v -l verbose -d 'more detail'
complete -c scmp-run -n __scmp_run_before_command -s h -l help -d 'show the help'
complete -c scmp-run -n __scmp_run_before_command -l version -d 'show the version'

# Positional words before any command: a syscall for --explain, a group for
# --list-groups, otherwise the command to run.
complete -c scmp-run -n '__scmp_run_before_command; and __scmp_run_seen --explain' \
    -a '(__scmp_run_syscalls)'
complete -c scmp-run -n '__scmp_run_before_command; and __scmp_run_seen --list-groups' \
    -a '(__scmp_run_groups)'
# After --explain-path: a path, then read, write or exec.
complete -c scmp-run -n '__scmp_run_seen --explain-path; and not __scmp_run_command_index >/dev/null' \
    -F
complete -c scmp-run -n '__scmp_run_seen --explain-path; and __scmp_run_command_index >/dev/null' \
    -a 'read write exec'
# --explain-audit FILE: the FILE as an operand
complete -c scmp-run -n '__scmp_run_before_command; and __scmp_run_seen --explain-audit' -F
complete -c scmp-run -n __scmp_run_at_command -a '(__fish_complete_command)'
complete -c scmp-run -n 'not __scmp_run_before_command; and not __scmp_run_other_mode' \
    -a '(__scmp_run_complete_command)'
