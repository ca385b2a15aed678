/* Another table's CPU hog: four spinning threads until a file named "stop" appears in its folder. */
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

static volatile int stopped;

static void *spin(void *unused) {
    (void)unused;
    volatile unsigned long n = 0;
    while (!stopped) n++;
    return NULL;
}

int main(void) {
    pthread_t threads[4];
    for (int t = 0; t < 4; t++) pthread_create(&threads[t], NULL, spin, NULL);
    while (access("stop", F_OK) != 0) usleep(20000);
    stopped = 1;
    for (int t = 0; t < 4; t++) pthread_join(threads[t], NULL);
    return 0;
}
