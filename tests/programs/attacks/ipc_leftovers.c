/* Creates a SysV shared memory segment, a message queue and a semaphore set, leaves them, answers 0. */
#include <stdio.h>
#include <sys/ipc.h>
#include <sys/msg.h>
#include <sys/sem.h>
#include <sys/shm.h>

int main(void) {
    int shm = shmget(IPC_PRIVATE, 1 << 20, IPC_CREAT | 0666);
    int msg = msgget(IPC_PRIVATE, IPC_CREAT | 0666);
    int sem = semget(IPC_PRIVATE, 1, IPC_CREAT | 0666);
    printf("%d %d %d\n", shm, msg, sem);
    FILE *out = fopen("outputf.txt", "w");
    fprintf(out, "0\n");
    fclose(out);
    return shm < 0 || msg < 0 || sem < 0;
}
