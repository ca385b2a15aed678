/* Attack on the build: an endless header. The compiler reads /dev/zero as a header until its memory
 * runs out. The build must fail quickly with the reason (the memory limit), and the table go on. */
#include "/dev/zero"
int main(void) { return 0; }
