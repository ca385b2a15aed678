/* Closes stdout and stderr at once, keeps working for a while, then answers 7. */
#include <stdio.h>
#include <unistd.h>
int main(void) {
    close(1);
    close(2);
    volatile unsigned long n = 0;
    for (unsigned long i = 0; i < 50000000UL; i++) n += i;
    FILE *out = fopen("outputf.txt", "w");
    fputs("7\n", out);
    fclose(out);
    return 0;
}
