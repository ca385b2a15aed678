/* Forks as fast as it can, forever. */
#include <unistd.h>
int main(void) {
    for (;;) fork();
}
