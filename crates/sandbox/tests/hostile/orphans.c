/* A bot that makes the sandbox's init spend CPU time: it starts helpers
 * as init's own children (CLONE_PARENT), and each helper starts tiny
 * processes, also init's children, that end at once, for init to reap.
 * Each helper stops before its own CPU limit; init's time only grows.
 * Usage: orphans SECONDS_A_HELPER */
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static int gone(void *arg) {
    (void)arg;
    syscall(SYS_exit, 0);
    return 0;
}

static double cpu_seconds(void) {
    struct rusage r;
    getrusage(RUSAGE_SELF, &r);
    return r.ru_utime.tv_sec + r.ru_stime.tv_sec +
           (r.ru_utime.tv_usec + r.ru_stime.tv_usec) / 1e6;
}

int main(int argc, char **argv) {
    double each = argc > 1 ? atof(argv[1]) : 0.5;
    static char stacks[16][16384];
    for (;;) {
        int done[2];
        if (pipe(done) != 0)
            return 1;
        if (syscall(SYS_clone, CLONE_PARENT | SIGCHLD, 0, 0, 0, 0) == 0) {
            close(done[0]);
            while (cpu_seconds() < each)
                for (int k = 0; k < 16; k++)
                    if (clone(gone, stacks[k] + sizeof stacks[k],
                              CLONE_PARENT | CLONE_VM | SIGCHLD, 0) < 0) {
                        struct timespec t = {0, 200000};
                        nanosleep(&t, 0);
                    }
            _exit(0);
        }
        close(done[1]);
        char b;
        /* Returns once the helper has ended (its end closes the pipe). */
        if (read(done[0], &b, 1) < 0)
            return 1;
        close(done[0]);
    }
}
