/* Running an installed program (gcc, clang, llc: compilers.c) under the
 * rules of the runtimes' children (rt_child.c, docs/runtimes.md "Children
 * and bounded time"), one mechanism for both:
 *
 * - The program runs in a forked child of pb_child_run's, which spawns it
 *   and waits for it: the child leads a process group that holds the
 *   program and whatever it starts (a compiler driver's cc1 and as, a
 *   wrapper's helpers); the group is killed once the child has ended, or
 *   at the bound, and the child kills it when sysdesc ends, by any signal,
 *   SIGKILL included (PR_SET_PDEATHSIG).
 * - Every program of one probe shares one deadline: the runtimes' bound
 *   (sysdesc_probe_options.runtime_timeout_ms, --runtime-timeout), counted
 *   from the first program run; once it has passed, no program is run.
 *   Twelve asks of a compiler that hangs cost the bound once, not twelve
 *   times a fixed 20 s.
 * - With runtimes_in_process (a caller that must not fork), the program is
 *   spawned by this process (posix_spawn) into a process group of its own,
 *   under the same deadline, the group killed when the program has ended
 *   or at the deadline; only the parent-death rule is lost there.
 *
 * Whatever keeps a program from answering (the bound, a descriptor or a
 * process that cannot be had, a crash) comes back as the reason, for the
 * caller's warning: never as a program that said no. */
#define _GNU_SOURCE
#include "probe_private.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* What one run gathers: the program's output (cut at `size` - 1 bytes,
 * the rest read and dropped) and how it ended. */
typedef struct collected {
    char *out;
    size_t size, got;
    int status;     /* exit status; -1: none (see why) */
    char why[PB_RT_WHY];
} collected;

/* Spawns argv (argv[0] a path): stdin /dev/null, stdout into a pipe read
 * here (stderr too with `with_stderr`, else `err_fd`: the child's log pipe,
 * or /dev/null when -1), default signal dispositions and mask whatever the
 * caller set.  `own_group`: in a process group of its own (in-process runs;
 * in a child it stays in the child's group).  Reads until the program has
 * ended (not until its output is closed: a process it left behind may hold
 * that), or until `deadline` (ms, monotonic; 0: none), when the program's
 * group is killed. */
static void spawn_collect(char *const argv[], bool with_stderr, int err_fd, bool own_group,
                          int64_t deadline, collected *c)
{
    c->status = -1;
    c->got = 0;
    int p[2];
    if (pipe2(p, O_CLOEXEC) != 0) {
        snprintf(c->why, sizeof(c->why), "could not be run: pipe: %s", strerror(errno));
        return;
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, p[1], 1);
    if (with_stderr) /* llc -mcpu=help prints its list there */
        posix_spawn_file_actions_adddup2(&fa, p[1], 2);
    else if (err_fd >= 0)
        posix_spawn_file_actions_adddup2(&fa, err_fd, 2);
    else
        posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    sigset_t none, all;
    sigemptyset(&none);
    sigfillset(&all);
    posix_spawnattr_setsigmask(&attr, &none);
    posix_spawnattr_setsigdefault(&attr, &all);
    short flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF;
    if (own_group) {
        posix_spawnattr_setpgroup(&attr, 0);
        flags |= POSIX_SPAWN_SETPGROUP;
    }
    posix_spawnattr_setflags(&attr, flags);
    pid_t pid;
    int rc = posix_spawn(&pid, argv[0], &fa, &attr, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&attr);
    close(p[1]);
    if (rc != 0) {
        close(p[0]);
        snprintf(c->why, sizeof(c->why), "could not be run: %s", strerror(rc));
        return;
    }
    fcntl(p[0], F_SETFL, O_NONBLOCK);
    bool open_pipe = true, ended = false, timed_out = false;
    while (!ended) {
        int wait_ms = 5; /* a compiler runs for tens of milliseconds */
        if (deadline) {
            int64_t left = deadline - now_ms();
            if (left <= 0) {
                timed_out = true;
                break;
            }
            if (left < wait_ms)
                wait_ms = (int)left;
        }
        if (open_pipe) {
            struct pollfd pfd = {p[0], POLLIN, 0};
            if (poll(&pfd, 1, wait_ms) > 0) {
                char sink[4096];
                bool keep = c->got + 1 < c->size;
                ssize_t n = read(p[0], keep ? c->out + c->got : sink,
                                 keep ? c->size - 1 - c->got : sizeof(sink));
                if (n > 0 && keep)
                    c->got += (size_t)n;
                if (n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN))
                    open_pipe = false;
            }
        } else {
            struct timespec nap = {0, (long)wait_ms * 1000000};
            nanosleep(&nap, NULL);
        }
        /* Ended, not yet reaped: its id (its group's) cannot be reused. */
        siginfo_t si;
        si.si_pid = 0;
        int r = waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT);
        if ((r == 0 && si.si_pid == pid) || (r < 0 && errno == ECHILD))
            ended = true; /* ECHILD: reaped by the system (SIGCHLD ignored) */
    }
    /* What it wrote before it ended is in the pipe now. */
    while (open_pipe && c->got + 1 < c->size) {
        ssize_t n = read(p[0], c->out + c->got, c->size - 1 - c->got);
        if (n <= 0 && !(n < 0 && errno == EINTR))
            break;
        if (n > 0)
            c->got += (size_t)n;
    }
    close(p[0]);
    if (own_group)
        kill(-pid, SIGKILL); /* what it started and left behind */
    if (timed_out)
        kill(pid, SIGKILL);
    int st = 0;
    pid_t w;
    /* A program killed while stuck in the kernel ends when it returns: it
     * is waited for a moment (as rt_child.c waits), then left a zombie
     * rather than holding the probe. */
    int64_t until = now_ms() + (timed_out ? 200 : 0);
    for (;;) {
        w = waitpid(pid, &st, timed_out ? WNOHANG : 0);
        if (w < 0 && errno == EINTR)
            continue;
        if (w != 0 || now_ms() >= until)
            break;
        struct timespec nap = {0, 1000000};
        nanosleep(&nap, NULL);
    }
    if (timed_out)
        snprintf(c->why, sizeof(c->why), "no answer in time: killed");
    else if (w == pid && WIFEXITED(st))
        c->status = WEXITSTATUS(st);
    else if (w == pid && WIFSIGNALED(st))
        snprintf(c->why, sizeof(c->why), "ended by signal %d (%s)", WTERMSIG(st),
                 strsignal(WTERMSIG(st)));
    else /* reaped by the system (SIGCHLD ignored): whether it said yes is lost */
        snprintf(c->why, sizeof(c->why), "its exit status was lost (SIGCHLD is ignored in "
                 "this process)");
}

/* ---- in a child of pb_child_run ---- */

typedef struct program_job {
    char *const *argv;
    bool with_stderr;
    size_t size;
} program_job;

/* The child's answer: "exit N\n" and the output, or "none REASON\n". */
static char *program_answer(void *arg, int progress_fd, size_t *len)
{
    const program_job *j = arg;
    (void)progress_fd;
    /* The caller's SIGCHLD, ignored, would lose the program's status. */
    signal(SIGCHLD, SIG_DFL);
    collected c = {.out = malloc(j->size), .size = j->size};
    if (!c.out)
        return NULL;
    /* stderr (2) is the child's log pipe: the program's complaints end
     * there, and the last line explains a child that failed */
    spawn_collect(j->argv, j->with_stderr, 2, false, 0, &c);
    char head[PB_RT_WHY + 16];
    int n = c.status >= 0 ? snprintf(head, sizeof(head), "exit %d\n", c.status)
                          : snprintf(head, sizeof(head), "none %s\n", c.why);
    char *text = malloc((size_t)n + c.got + 1);
    if (text) {
        memcpy(text, head, (size_t)n);
        memcpy(text + n, c.out, c.got);
        text[(size_t)n + c.got] = '\0';
        *len = (size_t)n + c.got;
    }
    free(c.out);
    return text;
}

/* ---- the caller's side ---- */

static unsigned bound_ms(const pb_run *run)
{
    return run->opts->runtime_timeout_ms ? run->opts->runtime_timeout_ms : PB_RT_TIMEOUT_MS;
}

int pb_program_run(pb_run *run, char *const argv[], bool with_stderr, char *out, size_t size,
                   char *why, size_t why_size)
{
    why[0] = '\0';
    if (out && size)
        out[0] = '\0';
    int64_t now = now_ms();
    if (!run->programs_deadline_ms)
        run->programs_deadline_ms = now + bound_ms(run);
    int64_t left = run->programs_deadline_ms - now;
    if (left <= 0) {
        snprintf(why, why_size, "not run: the compilers' bound of %u ms (--runtime-timeout) "
                 "had passed", bound_ms(run));
        return -1;
    }
    char sink[1];
    if (!out || !size) {
        out = sink;
        size = sizeof(sink);
    }
    int status = -1;
    if (run->opts->runtimes_in_process) {
        collected c = {.out = out, .size = size};
        spawn_collect(argv, with_stderr, -1, true, run->programs_deadline_ms, &c);
        out[c.got] = '\0';
        status = c.status;
        if (status < 0)
            snprintf(why, why_size, "%s", c.why);
    } else {
        program_job job = {argv, with_stderr, size};
        void *args[1] = {&job};
        char *texts[1];
        char whys[1][PB_RT_WHY];
        if (pb_child_run(program_answer, args, 1, (unsigned)left, "its run", NULL, NULL, texts,
                         whys) != 0) {
            snprintf(why, why_size, "could not be run: out of memory");
            return -1;
        }
        const char *t = texts[0];
        const char *nl = t ? strchr(t, '\n') : NULL;
        if (!t) {
            snprintf(why, why_size, "%s", whys[0]);
        } else if (nl && strncmp(t, "exit ", 5) == 0) {
            status = atoi(t + 5);
            snprintf(out, size, "%s", nl + 1);
        } else if (nl && strncmp(t, "none ", 5) == 0) {
            snprintf(why, why_size, "%.*s", (int)(nl - t - 5), t + 5);
        } else {
            snprintf(why, why_size, "could not be run: an answer of its child's not understood");
        }
        free(texts[0]);
    }
    if (status < 0 && now_ms() >= run->programs_deadline_ms)
        snprintf(why, why_size, "no answer within the compilers' bound of %u ms "
                 "(--runtime-timeout): killed, with what it started", bound_ms(run));
    return status;
}
