/* Attack on the build: a build that waits without spending CPU. The compiler opens /dev/ptmx (a new
 * pseudo-terminal's master, in the sandbox's minimal /dev) as a header and reads it: nothing ever comes,
 * so cc1 blocks, using no CPU. Builds are documented to have a 60 s wall limit; on the CPU clock of a
 * Code'em table the build's wall-clock cap is 5 x 60 + 1 = 301 s, so each such build holds the table's
 * start for five minutes. */
#include "/dev/ptmx"
int main(void) { return 0; }
