/* A hostile bot for the sandbox's tests (crates/sandbox/tests/filter.rs):
 * each command tries what a cheating bot would and prints what happened,
 * "NAME=ok" or "NAME=E<errno>".
 *
 *   probe calls                    many calls, one line each
 *   probe ptrace PID               attach to PID (the sandbox's init is 1)
 *   probe unix PATH                connect to the Unix socket at PATH
 *   probe inotify DIR              watch DIR
 *   probe fastopen PORT            send to 127.0.0.1:PORT by TCP Fast Open
 *   probe keyread NAME             read the user key NAME of the session keyring
 *   probe session-exec NAME TEXT PROG ARGS...
 *                                  a new session keyring holding NAME=TEXT, then exec PROG
 *   probe send KIND WHERE BASE HOLD_S CARDS   signal 13 cards (0..51, comma-separated)
 *   probe recv KIND WHERE BASE WAIT_S         read them
 * KIND: posix (F_SETLK/F_GETLK on the file WHERE, bytes BASE+bit, marker BASE+1000),
 *       ofd (the same with F_OFD_*), flock (files WHERE/bN and WHERE/marker). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/keyctl.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/inotify.h>
#include <sys/ioctl.h>
#include <sys/ipc.h>
#include <sys/mman.h>
#include <sys/msg.h>
#include <sys/mount.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/sem.h>
#include <sys/shm.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <netinet/in.h>
#include <time.h>
#include <unistd.h>

#define BITS 78

static void say(const char *name, long r) {
    if (r < 0) printf("%s=E%d\n", name, errno);
    else printf("%s=ok\n", name);
    fflush(stdout);
}

static void *thread_main(void *arg) { return arg; }

static pid_t sleeper(void) {
    pid_t c = fork();
    if (c == 0) { pause(); _exit(0); }
    return c;
}

static void calls(const char *self) {
    long r;
    r = syscall(SYS_memfd_create, "probe", 0); say("memfd_create", r);
#ifdef SYS_memfd_secret
    r = syscall(SYS_memfd_secret, 0); say("memfd_secret", r);
#endif
    r = shmget(IPC_PRIVATE, 4096, IPC_CREAT | 0600); say("shmget", r);
    if (r >= 0) shmctl((int)r, IPC_RMID, NULL);
    r = semget(IPC_PRIVATE, 1, IPC_CREAT | 0600); say("semget", r);
    if (r >= 0) semctl((int)r, 0, IPC_RMID);
    r = msgget(IPC_PRIVATE, IPC_CREAT | 0600); say("msgget", r);
    if (r >= 0) msgctl((int)r, IPC_RMID, NULL);
    r = syscall(SYS_mq_open, "whistle-probe", O_CREAT | O_RDWR, 0600, NULL); say("mq_open", r);
    if (r >= 0) syscall(SYS_mq_unlink, "whistle-probe");
    r = inotify_init1(0); say("inotify_init1", r);
    r = syscall(SYS_keyctl, KEYCTL_GET_KEYRING_ID, KEY_SPEC_SESSION_KEYRING, 0); say("keyctl", r);
    r = syscall(SYS_add_key, "user", "probe", "x", 1, KEY_SPEC_PROCESS_KEYRING); say("add_key", r);
    struct perf_event_attr pa;
    memset(&pa, 0, sizeof pa);
    pa.type = PERF_TYPE_SOFTWARE; pa.size = sizeof pa; pa.config = PERF_COUNT_SW_TASK_CLOCK;
    pa.exclude_kernel = 1;
    r = syscall(SYS_perf_event_open, &pa, 0, -1, -1, 0); say("perf_event_open", r);
    r = syscall(SYS_userfaultfd, 0); say("userfaultfd", r);
    r = syscall(SYS_clone3, NULL, 0); say("clone3", r);
    unsigned char params[120];
    memset(params, 0, sizeof params);
    r = syscall(SYS_io_uring_setup, 1, params); say("io_uring_setup", r);
    r = syscall(SYS_syslog, 10, NULL, 0); say("syslog", r);
    r = mount("none", "/nonexistent-whistle-probe", "tmpfs", 0, NULL); say("mount", r);
    pid_t c = fork();
    if (c == 0) _exit(unshare(CLONE_NEWUSER) < 0 ? errno : 0);
    int st = 0;
    waitpid(c, &st, 0);
    errno = WEXITSTATUS(st); say("unshare_user", WEXITSTATUS(st) ? -1 : 0);
    r = syscall(SYS_clone, CLONE_NEWUSER | SIGCHLD, 0, 0, 0, 0);
    if (r == 0) _exit(0);
    if (r > 0) waitpid((pid_t)r, NULL, 0);
    say("clone_newuser", r);
    /* What must keep working. */
    c = fork();
    if (c == 0) _exit(0);
    if (c > 0) waitpid(c, NULL, 0);
    say("fork", c);
    pthread_t t;
    errno = pthread_create(&t, NULL, thread_main, NULL);
    if (errno == 0) pthread_join(t, NULL);
    say("thread", errno ? -1 : 0);
    int sv[2];
    r = socketpair(AF_UNIX, SOCK_STREAM, 0, sv); say("socketpair", r);
    r = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0); say("socket_unix_stream", r);
    r = socket(AF_UNIX, SOCK_DGRAM, 0); say("socket_unix_dgram", r);
    r = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0); say("socket_tcp", r);
    int tcp = (int)r;
    r = socket(AF_INET6, SOCK_STREAM, IPPROTO_TCP); say("socket_tcp6", r);
    r = socket(AF_INET, SOCK_DGRAM, 0); say("socket_udp", r);
    r = socket(AF_INET6, SOCK_DGRAM, 0); say("socket_udp6", r);
    r = socket(AF_INET, SOCK_STREAM, IPPROTO_SCTP); say("socket_sctp", r);
    r = socket(AF_INET, SOCK_RAW, IPPROTO_ICMP); say("socket_raw", r);
    r = socket(AF_PACKET, SOCK_RAW, 0); say("socket_packet", r);
    r = socket(AF_NETLINK, SOCK_RAW, 0); say("socket_netlink", r);
    if (tcp >= 0) { r = listen(tcp, 1); say("listen", r); }
    /* Other processes. */
    c = sleeper();
    usleep(20000);
    r = ptrace(PTRACE_ATTACH, c, 0, 0); say("ptrace_child", r);
    char buf[8];
    struct iovec local = {buf, sizeof buf}, remote = {(void *)self, sizeof buf};
    r = process_vm_readv(c, &local, 1, &remote, 1, 0); say("process_vm_readv", r);
    /* Another process's limits, priority, scheduling and CPUs (under
     * Landlock alone: any process of the organiser's user). */
    struct rlimit rl;
    r = prlimit(c, RLIMIT_NOFILE, NULL, &rl); say("prlimit_other", r);
    r = prlimit(0, RLIMIT_NOFILE, NULL, &rl); say("prlimit_self", r);
    r = setpriority(PRIO_PROCESS, c, 0); say("setpriority_other", r);
    r = setpriority(PRIO_PROCESS, 0, 0); say("setpriority_self", r);
    struct sched_param sp = {0};
    r = sched_setscheduler(c, SCHED_OTHER, &sp); say("sched_setscheduler_other", r);
    cpu_set_t cpus;
    sched_getaffinity(0, sizeof cpus, &cpus);
    r = sched_setaffinity(c, sizeof cpus, &cpus); say("sched_setaffinity_other", r);
    r = sched_setaffinity(0, sizeof cpus, &cpus); say("sched_setaffinity_self", r);
    kill(c, SIGKILL);
    waitpid(c, NULL, 0);
    /* Locks and leases on a file it may read. */
    int fd = open(self, O_RDONLY);
    struct flock fl = {.l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = 0, .l_len = 1};
    r = fcntl(fd, F_GETLK, &fl); say("fcntl_getlk", r);
    fl.l_pid = 0;
    r = fcntl(fd, F_OFD_GETLK, &fl); say("fcntl_ofd_getlk", r);
    r = fcntl(fd, F_SETLEASE, F_RDLCK); say("fcntl_setlease", r);
    r = fcntl(fd, F_GETFD); say("fcntl_getfd", r);
    /* Typing into a terminal: on a file that is none, the kernel says ENOTTY. */
    char ch = 'x';
    r = ioctl(fd, TIOCSTI, &ch); say("ioctl_tiocsti", r);
    r = ioctl(fd, FIONREAD, &st); say("ioctl_fionread", r);
}

static int cards_to_bits(const char *list, int *bits) {
    int n = 0;
    memset(bits, 0, sizeof(int) * BITS);
    char *copy = strdup(list), *save = NULL;
    for (char *tok = strtok_r(copy, ",", &save); tok && n < 13; tok = strtok_r(NULL, ",", &save), n++) {
        int c = atoi(tok);
        for (int b = 0; b < 6; b++) bits[n * 6 + b] = (c >> b) & 1;
    }
    free(copy);
    return n;
}

/* Whether the lock at `off` (or file `name`) is held by someone else; -1 on error. */
static int held(const char *kind, int fd, const char *where, long off, const char *name) {
    if (strcmp(kind, "flock") == 0) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", where, name);
        int f = open(path, O_RDONLY);
        if (f < 0) return -1;
        int r = flock(f, LOCK_EX | LOCK_NB);
        int e = errno;
        if (r == 0) flock(f, LOCK_UN);
        close(f);
        if (r == 0) return 0;
        errno = e;
        return e == EWOULDBLOCK ? 1 : -1;
    }
    struct flock fl = {.l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = off, .l_len = 1, .l_pid = 0};
    int cmd = strcmp(kind, "ofd") == 0 ? F_OFD_GETLK : F_GETLK;
    if (fcntl(fd, cmd, &fl) < 0) return -1;
    return fl.l_type != F_UNLCK;
}

static int take(const char *kind, int fd, const char *where, long off, const char *name) {
    if (strcmp(kind, "flock") == 0) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", where, name);
        int f = open(path, O_RDONLY); /* kept open: the lock lives with it */
        return f < 0 ? -1 : flock(f, LOCK_SH);
    }
    struct flock fl = {.l_type = F_RDLCK, .l_whence = SEEK_SET, .l_start = off, .l_len = 1, .l_pid = 0};
    return fcntl(fd, strcmp(kind, "ofd") == 0 ? F_OFD_SETLK : F_SETLK, &fl);
}

static int channel(int argc, char **argv) {
    const char *cmd = argv[1], *kind = argv[2], *where = argv[3];
    long base = atol(argv[4]);
    int seconds = atoi(argv[5]);
    int fd = strcmp(kind, "flock") == 0 ? -1 : open(where, O_RDONLY);
    if (fd < 0 && strcmp(kind, "flock") != 0) { say("open", -1); return 1; }
    char name[32];
    if (strcmp(cmd, "send") == 0) {
        int bits[BITS];
        cards_to_bits(argc > 6 ? argv[6] : "", bits);
        int refused = 0;
        for (int b = 0; b < BITS; b++) {
            snprintf(name, sizeof name, "b%d", b);
            if (bits[b] && take(kind, fd, where, base + b, name) < 0) refused = errno;
        }
        if (take(kind, fd, where, base + 1000, "marker") < 0) refused = errno;
        printf(refused ? "send=E%d\n" : "send=ok\n", refused);
        fflush(stdout);
        sleep(seconds);
        return 0;
    }
    /* recv: wait for the marker, then read the bits. */
    struct timespec start, now;
    clock_gettime(CLOCK_MONOTONIC, &start);
    for (;;) {
        int h = held(kind, fd, where, base + 1000, "marker");
        if (h < 0) { say("recv", -1); return 0; }
        if (h) break;
        clock_gettime(CLOCK_MONOTONIC, &now);
        if (now.tv_sec - start.tv_sec >= seconds) { printf("recv=no-signal\n"); return 0; }
        usleep(10000);
    }
    int bits[BITS];
    for (int b = 0; b < BITS; b++) {
        snprintf(name, sizeof name, "b%d", b);
        int h = held(kind, fd, where, base + b, name);
        if (h < 0) { say("recv", -1); return 0; }
        bits[b] = h;
    }
    printf("cards ");
    for (int n = 0; n < 13; n++) {
        int c = 0;
        for (int b = 0; b < 6; b++) c |= bits[n * 6 + b] << b;
        printf(n ? ",%d" : "%d", c);
    }
    printf("\n");
    return 0;
}

int main(int argc, char **argv) {
    if (argc < 2) return 2;
    const char *cmd = argv[1];
    if (strcmp(cmd, "calls") == 0) { calls(argv[0]); return 0; }
    if (strcmp(cmd, "ptrace") == 0 && argc > 2) {
        pid_t p = atoi(argv[2]);
        long r = ptrace(PTRACE_SEIZE, p, 0, 0);
        say("ptrace", r);
        if (r == 0) {
            /* Freeze it, as a cheat would, then let it go. */
            r = ptrace(PTRACE_INTERRUPT, p, 0, 0);
            say("interrupt", r);
            ptrace(PTRACE_DETACH, p, 0, 0);
        }
        return 0;
    }
    if (strcmp(cmd, "unix") == 0 && argc > 2) {
        int s = socket(AF_UNIX, SOCK_STREAM, 0);
        if (s < 0) { say("socket", -1); return 0; }
        struct sockaddr_un a = {.sun_family = AF_UNIX};
        strncpy(a.sun_path, argv[2], sizeof a.sun_path - 1);
        say("connect", connect(s, (struct sockaddr *)&a, sizeof a));
        return 0;
    }
    if (strcmp(cmd, "fastopen") == 0 && argc > 2) {
        /* A TCP connection to any port by TCP Fast Open (sendto with
         * MSG_FASTOPEN connects without connect(2), which Landlock rules). */
        int s = socket(AF_INET, SOCK_STREAM, 0);
        if (s < 0) { say("socket", -1); return 0; }
        struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons(atoi(argv[2])),
                                .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
        long r = sendto(s, "51,0,13", 7, MSG_FASTOPEN, (struct sockaddr *)&a, sizeof a);
        say("fastopen", r);
        sleep(1);
        return 0;
    }
    if (strcmp(cmd, "inotify") == 0 && argc > 2) {
        int fd = inotify_init1(0);
        if (fd < 0) { say("inotify", -1); return 0; }
        say("inotify_add_watch", inotify_add_watch(fd, argv[2], IN_CREATE));
        return 0;
    }
    if (strcmp(cmd, "keyread") == 0 && argc > 2) {
        long id = syscall(SYS_keyctl, KEYCTL_SEARCH, KEY_SPEC_SESSION_KEYRING, "user", argv[2], 0);
        if (id < 0) { say("keyctl_search", -1); return 0; }
        char buf[256] = {0};
        long n = syscall(SYS_keyctl, KEYCTL_READ, id, buf, sizeof buf - 1);
        if (n < 0) { say("keyctl_read", -1); return 0; }
        printf("key=%s\n", buf);
        return 0;
    }
    if (strcmp(cmd, "session-exec") == 0 && argc > 4) {
        if (syscall(SYS_keyctl, KEYCTL_JOIN_SESSION_KEYRING, NULL) < 0) { perror("join"); return 3; }
        if (syscall(SYS_add_key, "user", argv[2], argv[3], strlen(argv[3]), KEY_SPEC_SESSION_KEYRING) < 0) {
            perror("add_key");
            return 3;
        }
        execv(argv[4], argv + 4);
        perror("exec");
        return 3;
    }
    if ((strcmp(cmd, "send") == 0 || strcmp(cmd, "recv") == 0) && argc > 5) return channel(argc, argv);
    return 2;
}
