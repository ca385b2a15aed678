/* Spins forever: must end as a wall-time fault. */
int main(void) {
    volatile unsigned long n = 0;
    for (;;) n++;
}
