/* Work in bounded time: each job runs in a child process of its own, all
 * at once, and writes its answer (text) to a pipe; the parent reads the
 * pipes until the answers are complete or the time bound has passed, and
 * kills a child that is still running then.  A runtime that hangs or
 * crashes in its own init (or in a kernel: `sysdesc measure --device`)
 * costs its own answer, nothing else.  pb_rt_ask_start and _wait run the
 * runtime sources this way (their answers: rt_text.c), started before the
 * probe's other sources and waited for after them; pb_child_start, _wait
 * and _run are the machinery.
 *
 * The fork rule (docs/runtimes.md, "Children and fork"): the child runs
 * only the job's function, writes its answer to its pipe and ends with
 * _exit(): no atexit handler, no stdio flush and no return into the
 * caller's code; the caller's handlers of crash signals are reset, so that
 * a runtime's crash ends the child by its signal.  Its standard output and
 * error go to a second pipe, so a runtime's chatter never lands in the
 * caller's output; the last line of it explains a child that failed; its
 * standard input is an empty pipe.  A third pipe, when the caller wants one,
 * carries progress lines.  In a multithreaded caller the child holds the
 * forking thread only; glibc makes malloc, stdio and dlopen safe there, and
 * a child that deadlocks all the same is killed at the bound.
 *
 * Nothing a child starts outlives the ask: each child leads a process group
 * of its own, and the whole group is killed once the child has ended (seen
 * before it is reaped, so that its id cannot have been reused) or at the
 * bound, or by the child when the parent ends, by whatever signal
 * (PR_SET_PDEATHSIG: SIGKILL of the parent too).  Compilers run the same
 * way (host/programs.c).  An answer is at most PB_RT_MAX_ANSWER_BYTES: a child that writes
 * more is killed with its group. */
#define _GNU_SOURCE
#include "probe_private.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* How long a killed child is waited for before it is left behind. */
#define KILL_GRACE_MS 200

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void write_all(int fd, const char *p, size_t n)
{
    while (n) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return;
        p += w;
        n -= (size_t)w;
    }
}

/* The signal the child gets when its parent ends (PR_SET_PDEATHSIG): one
 * no runtime or compiler is known to use. */
#define PARENT_GONE SIGRTMAX

/* The parent has ended, however (a signal it caught or not, SIGKILL
 * included): this child's whole group goes with it, the child last, so
 * that nothing a runtime or a compiler started is left to init. */
static void parent_gone(int sig)
{
    (void)sig;
    pid_t me = getpid();
    if (getpgrp() == me) /* never the caller's group */
        kill(-me, SIGKILL);
    _exit(9);
}

/* The child: never returns. */
static void child_main(pb_child_fn fn, void *arg, int out_fd, int log_fd, int progress_fd,
                       pid_t parent)
{
    /* A group of its own, which the parent kills whole (the parent sets it
     * too: whichever runs first); killed, the group with it, when the
     * parent ends; gone already if the parent died before this.  The
     * handler and the signal are set before the death signal is asked for,
     * whatever the caller's mask and handlers were. */
    setpgid(0, 0);
    struct sigaction gone;
    memset(&gone, 0, sizeof(gone));
    gone.sa_handler = parent_gone;
    sigfillset(&gone.sa_mask);
    sigaction(PARENT_GONE, &gone, NULL);
    sigset_t unblock;
    sigemptyset(&unblock);
    sigaddset(&unblock, PARENT_GONE);
    sigprocmask(SIG_UNBLOCK, &unblock, NULL);
    prctl(PR_SET_PDEATHSIG, PARENT_GONE);
    if (getppid() != parent)
        _exit(4);
    /* The caller's handlers are the caller's business: a runtime that
     * crashes here ends this child by its signal, which the parent reports
     * (no crash reporter of the caller's, no sanitizer's report). */
    static const int crashes[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGSYS, SIGTRAP};
    for (size_t i = 0; i < sizeof(crashes) / sizeof(crashes[0]); i++)
        signal(crashes[i], SIG_DFL);
    signal(SIGPIPE, SIG_DFL);
    /* Above 2 first, so that the dup2 onto 0, 1 and 2 cannot close them.
     * Standard input: an empty pipe (a runtime that reads it gets its end,
     * never the caller's terminal or data).  The answer goes to 3, and no
     * other descriptor of the caller's is left open: a runtime writes to
     * its two pipes and nowhere else the caller holds. */
    int out = fcntl(out_fd, F_DUPFD_CLOEXEC, 3);
    int log = fcntl(log_fd, F_DUPFD_CLOEXEC, 3);
    int progress = progress_fd >= 0 ? fcntl(progress_fd, F_DUPFD_CLOEXEC, 3) : -1;
    int in[2];
    /* the answer on 3, progress (when asked) on 4 */
    if (out < 0 || log < 0 || (progress_fd >= 0 && progress < 0) || pipe2(in, O_CLOEXEC) != 0 ||
        close(in[1]) != 0 || dup2(in[0], 0) < 0 || dup2(log, 1) < 0 || dup2(log, 2) < 0 ||
        (out != 3 && dup3(out, 3, O_CLOEXEC) < 0) ||
        (progress >= 0 && progress != 4 && dup3(progress, 4, O_CLOEXEC) < 0))
        _exit(5);
    unsigned first = progress >= 0 ? 5 : 4; /* what the child keeps is below */
    if (close_range(first, ~0u, 0) != 0) {
        struct rlimit r;
        long max = getrlimit(RLIMIT_NOFILE, &r) == 0 && r.rlim_cur < 65536 ? (long)r.rlim_cur : 65536;
        for (long fd = first; fd < max; fd++)
            close((int)fd);
    }
    size_t len = 0;
    char *text = fn(arg, progress >= 0 ? 4 : -1, &len);
    if (!text)
        _exit(3);
    write_all(3, text, len);
    _exit(0);
}

typedef struct job {
    pid_t pid;
    int out_fd, log_fd, progress_fd; /* -1 once at end of file (progress: or not asked) */
    bs_buf text;
    char log[512]; /* the end of what the child printed */
    size_t loglen;
    char line[256]; /* the progress line being read */
    size_t linelen;
    int status;
    bool reaped, killed, flooded;
} job;

typedef enum { PIPE_OUT, PIPE_LOG, PIPE_PROGRESS } pipe_kind;

static void close_pair(int p[2])
{
    if (p[0] >= 0)
        close(p[0]);
    if (p[1] >= 0)
        close(p[1]);
}

static void job_start(pb_child_fn fn, void *arg, bool progress, job *j, char *why)
{
    int out[2] = {-1, -1}, log[2] = {-1, -1}, prog[2] = {-1, -1};
    j->pid = -1;
    j->out_fd = j->log_fd = j->progress_fd = -1;
    if (pipe2(out, O_CLOEXEC) != 0 || pipe2(log, O_CLOEXEC) != 0 ||
        (progress && pipe2(prog, O_CLOEXEC) != 0)) {
        snprintf(why, PB_RT_WHY, "not asked: pipe: %s", strerror(errno));
        close_pair(out);
        close_pair(log);
        close_pair(prog);
        return;
    }
    pid_t parent = getpid();
    j->pid = fork();
    if (j->pid == 0)
        child_main(fn, arg, out[1], log[1], prog[1], parent);
    if (j->pid > 0)
        setpgid(j->pid, j->pid); /* as the child does: no race over who is first */
    close(out[1]);
    close(log[1]);
    if (prog[1] >= 0)
        close(prog[1]);
    if (j->pid < 0) {
        snprintf(why, PB_RT_WHY, "not asked: fork: %s", strerror(errno));
        close(out[0]);
        close(log[0]);
        if (prog[0] >= 0)
            close(prog[0]);
        return;
    }
    j->out_fd = out[0];
    j->log_fd = log[0];
    j->progress_fd = prog[0];
    /* The parent's ends only: the child's writes block as pipes do. */
    fcntl(out[0], F_SETFL, O_NONBLOCK);
    fcntl(log[0], F_SETFL, O_NONBLOCK);
    if (prog[0] >= 0)
        fcntl(prog[0], F_SETFL, O_NONBLOCK);
}

/* The callback that receives progress lines, and its job. */
typedef struct line_sink {
    pb_child_line_fn fn;
    void *user;
    size_t job;
} line_sink;

/* Hands each whole line of progress to the sink (a line too long is cut). */
static void job_lines(job *j, const char *b, size_t n, const line_sink *sink)
{
    for (size_t i = 0; i < n; i++) {
        if (b[i] != '\n') {
            if (j->linelen + 1 < sizeof(j->line))
                j->line[j->linelen++] = b[i];
            continue;
        }
        j->line[j->linelen] = '\0';
        if (sink->fn)
            sink->fn(sink->user, sink->job, j->line);
        j->linelen = 0;
    }
}

/* Reads what is there: false when nothing more is there now (EAGAIN);
 * closes the descriptor at end of file. */
static bool job_read(job *j, int *fd, pipe_kind kind, const line_sink *sink)
{
    char b[4096];
    ssize_t r = read(*fd, b, sizeof(b));
    if (r < 0 && errno == EINTR)
        return true;
    if (r < 0 && errno == EAGAIN)
        return false;
    if (r <= 0) {
        close(*fd);
        *fd = -1;
        return false;
    }
    if (kind == PIPE_OUT) {
        if (j->text.len + (size_t)r > PB_RT_MAX_ANSWER_BYTES) {
            /* a flood: no answer is that big; the child and its group end */
            j->flooded = true;
            kill(-j->pid, SIGKILL);
            kill(j->pid, SIGKILL);
            close(*fd);
            *fd = -1;
            return false;
        }
        bs_buf_put(&j->text, b, (size_t)r);
        return true;
    }
    if (kind == PIPE_PROGRESS) {
        job_lines(j, b, (size_t)r, sink);
        return true;
    }
    /* keep the last sizeof(log) bytes */
    size_t n = (size_t)r;
    if (n >= sizeof(j->log)) {
        memcpy(j->log, b + n - sizeof(j->log), sizeof(j->log));
        j->loglen = sizeof(j->log);
    } else {
        if (j->loglen + n > sizeof(j->log)) {
            size_t drop = j->loglen + n - sizeof(j->log);
            memmove(j->log, j->log + drop, j->loglen - drop);
            j->loglen -= drop;
        }
        memcpy(j->log + j->loglen, b, n);
        j->loglen += n;
    }
    return true;
}

/* The child has ended and its group is gone: what its pipes hold is all of
 * it, read up to the answer's limit (a process that left the group may
 * still hold them open: they are closed all the same). */
static void job_drain(job *j, const line_sink *sink)
{
    while (j->out_fd >= 0 && job_read(j, &j->out_fd, PIPE_OUT, sink))
        ;
    for (size_t n = 0; j->log_fd >= 0 && n < PB_RT_MAX_ANSWER_BYTES / 4096 &&
                       job_read(j, &j->log_fd, PIPE_LOG, sink);
         n++)
        ;
    for (size_t n = 0; j->progress_fd >= 0 && n < PB_RT_MAX_ANSWER_BYTES / 4096 &&
                       job_read(j, &j->progress_fd, PIPE_PROGRESS, sink);
         n++)
        ;
    if (j->out_fd >= 0)
        close(j->out_fd);
    if (j->log_fd >= 0)
        close(j->log_fd);
    if (j->progress_fd >= 0)
        close(j->progress_fd);
    j->out_fd = j->log_fd = j->progress_fd = -1;
}

/* Whether the child has ended, without reaping it: until it is reaped its
 * id is not reused, so its process group can be killed without a doubt.
 * A caller that ignores SIGCHLD has it reaped by the system (ECHILD): its
 * end is then seen on its pipes. */
static bool job_ended(const job *j)
{
    for (;;) {
        siginfo_t si;
        si.si_pid = 0;
        if (waitid(P_PID, (id_t)j->pid, &si, WEXITED | WNOHANG | WNOWAIT) == 0)
            return si.si_pid == j->pid;
        if (errno != EINTR)
            return errno == ECHILD && j->out_fd < 0 && j->log_fd < 0 && j->progress_fd < 0;
    }
}

/* Ends what is left of the child's process group (what the runtime
 * started), then reaps the child when it has ended (never blocks). */
static void job_reap(job *j)
{
    if (j->reaped || j->pid <= 0 || !job_ended(j))
        return;
    kill(-j->pid, SIGKILL);
    for (;;) {
        pid_t r = waitpid(j->pid, &j->status, WNOHANG);
        if (r < 0 && errno == EINTR)
            continue;
        if (r == j->pid) {
            j->reaped = true;
        } else if (r < 0) { /* ECHILD: reaped by the system, judged by its answer */
            j->reaped = true;
            j->status = 0;
        }
        return;
    }
}

/* The last non-empty line the child printed, for a failure's reason. */
static void last_line(const job *j, char *out, size_t size)
{
    size_t end = j->loglen;
    while (end && (j->log[end - 1] == '\n' || j->log[end - 1] == '\r' || j->log[end - 1] == ' '))
        end--;
    size_t start = end;
    while (start && j->log[start - 1] != '\n')
        start--;
    out[0] = '\0';
    if (end > start)
        snprintf(out, size, ": \"%.*s\"", (int)(end - start < 160 ? end - start : 160),
                 j->log + start);
    for (char *p = out; *p; p++)
        if ((unsigned char)*p < 0x20)
            *p = '?';
}

static char *job_result(job *j, unsigned timeout_ms, const char *what, char *why)
{
    char tail[200];
    last_line(j, tail, sizeof(tail));
    if (j->flooded) {
        snprintf(why, PB_RT_WHY, "its answer passed the limit of %zu bytes: abandoned (killed)%s",
                 PB_RT_MAX_ANSWER_BYTES, tail);
    } else if (j->killed) {
        snprintf(why, PB_RT_WHY, "no answer within %u ms: abandoned (killed)%s", timeout_ms,
                 tail);
    } else if (WIFSIGNALED(j->status)) {
        snprintf(why, PB_RT_WHY, "crashed in %s (signal %d, %s)%s", what, WTERMSIG(j->status),
                 strsignal(WTERMSIG(j->status)), tail);
    } else if (WIFEXITED(j->status) && WEXITSTATUS(j->status) != 0) {
        snprintf(why, PB_RT_WHY, "%s exited with status %d%s", what, WEXITSTATUS(j->status),
                 tail);
    } else if (j->text.failed || !j->text.data) {
        snprintf(why, PB_RT_WHY, "%s", j->text.failed ? "out of memory" : "no answer");
    } else {
        char *t = j->text.data;
        j->text.data = NULL;
        return t;
    }
    free(j->text.data);
    j->text.data = NULL;
    return NULL;
}

/* Children started and not yet waited for (pb_child_start). */
struct pb_children {
    job *jobs;
    struct pollfd *pfd;
    size_t n;
    unsigned timeout_ms;
    int64_t deadline;
    const char *what;
    pb_child_line_fn on_line;
    void *user;
    char (*whys)[PB_RT_WHY]; /* a job that could not start: why, at once */
};

pb_children *pb_child_start(pb_child_fn fn, void *const *args, size_t n, unsigned timeout_ms,
                            const char *what, pb_child_line_fn on_line, void *user,
                            char (*whys)[PB_RT_WHY])
{
    for (size_t i = 0; i < n; i++)
        whys[i][0] = '\0';
    pb_children *c = calloc(1, sizeof(*c));
    job *jobs = calloc(n ? n : 1, sizeof(*jobs));
    struct pollfd *pfd = calloc(3 * n + 1, sizeof(*pfd));
    if (!c || !jobs || !pfd) {
        free(c);
        free(jobs);
        free(pfd);
        return NULL;
    }
    *c = (pb_children){jobs, pfd, n, timeout_ms, 0, what, on_line, user, whys};
    /* Flushed before fork: the children's copies are never flushed (they
     * _exit), and nothing the caller buffered is written twice. */
    fflush(NULL);
    c->deadline = now_ms() + timeout_ms;
    for (size_t i = 0; i < n; i++)
        job_start(fn, args[i], on_line != NULL, &jobs[i], whys[i]);
    return c;
}

int64_t pb_child_deadline(const pb_children *c)
{
    return c->deadline;
}

void pb_child_wait(pb_children *c, char **texts)
{
    job *jobs = c->jobs;
    struct pollfd *pfd = c->pfd;
    size_t n = c->n;
    pb_child_line_fn on_line = c->on_line;
    void *user = c->user;
    for (size_t i = 0; i < n; i++)
        texts[i] = NULL;
    for (;;) {
        size_t np = 0;
        bool pending = false;
        for (size_t i = 0; i < n; i++) {
            job *j = &jobs[i];
            if (j->pid <= 0)
                continue;
            job_reap(j);
            if (j->reaped) {
                job_drain(j, &(line_sink){on_line, user, i});
                continue;
            }
            pending = true;
            int fds[3] = {j->out_fd, j->log_fd, j->progress_fd};
            for (int k = 0; k < 3; k++)
                if (fds[k] >= 0)
                    pfd[np++] = (struct pollfd){.fd = fds[k], .events = POLLIN};
        }
        int64_t left = c->deadline - now_ms();
        if (!pending || left <= 0)
            break;
        /* Pipes closed: the child is ending, look again in a millisecond. */
        int ms = np ? (left < 100 ? (int)left : 100) : 1;
        if (poll(pfd, np, ms) < 0 && errno != EINTR)
            break;
        for (size_t k = 0; k < np; k++) {
            if (!(pfd[k].revents & (POLLIN | POLLHUP | POLLERR | POLLNVAL)))
                continue;
            for (size_t i = 0; i < n; i++) {
                job *j = &jobs[i];
                line_sink sink = {on_line, user, i};
                if (j->out_fd == pfd[k].fd)
                    job_read(j, &j->out_fd, PIPE_OUT, &sink);
                else if (j->log_fd == pfd[k].fd)
                    job_read(j, &j->log_fd, PIPE_LOG, &sink);
                else if (j->progress_fd == pfd[k].fd)
                    job_read(j, &j->progress_fd, PIPE_PROGRESS, &sink);
            }
        }
    }
    for (size_t i = 0; i < n; i++) {
        job *j = &jobs[i];
        if (j->pid <= 0)
            continue;
        if (!j->reaped) { /* still running at the bound: abandoned, with its group */
            kill(-j->pid, SIGKILL);
            kill(j->pid, SIGKILL);
            j->killed = !j->flooded;
            /* A child stuck in the kernel (a driver's ioctl) dies only when
             * it returns: it is waited for a moment, then left to become a
             * zombie of this process rather than holding the caller up. */
            for (int64_t until = now_ms() + KILL_GRACE_MS;
                 !j->reaped && now_ms() < until;) {
                struct timespec ts = {0, 1000000};
                nanosleep(&ts, NULL);
                job_reap(j);
            }
        }
        job_drain(j, &(line_sink){on_line, user, i});
        texts[i] = job_result(j, c->timeout_ms, c->what, c->whys[i]);
    }
    free(jobs);
    free(pfd);
    free(c);
}

void pb_child_abandon(pb_children *c, char **texts)
{
    c->deadline = now_ms(); /* what is still running is killed at once */
    pb_child_wait(c, texts);
}

int pb_child_run(pb_child_fn fn, void *const *args, size_t n, unsigned timeout_ms,
                 const char *what, pb_child_line_fn on_line, void *user, char **texts,
                 char (*whys)[PB_RT_WHY])
{
    pb_children *c = pb_child_start(fn, args, n, timeout_ms, what, on_line, user, whys);
    if (!c)
        return -1;
    pb_child_wait(c, texts);
    return 0;
}

/* ---- the runtime sources ---- */

/* Runs `src` over a run of its own and prints the answer (NULL when out of
 * memory): the whole of a child's work, and of an in-process ask. */
static char *answer_of(const pb_run *parent, const pb_rt_source *src, size_t *len)
{
    dlti_context *ctx = dlti_context_new();
    if (!ctx)
        return NULL;
    pb_run run;
    pb_run_init(&run, ctx, parent->opts);
    dlti_error_t err;
    if (src->probe(&run, &err) != 0)
        pb_rt_skipped(&run, src->name, err.text);
    char *text = pb_rt_print(&run, pb_rt_libraries(ctx), len);
    pb_run_free(&run);
    dlti_context_free(ctx);
    return text;
}

typedef struct rt_job {
    const pb_run *run;
    const pb_rt_source *src;
} rt_job;

static char *rt_answer(void *arg, int progress_fd, size_t *len)
{
    const rt_job *job = arg;
    (void)progress_fd;
    /* The whole node's view: the runtime sees every GPU (this child's
     * environment only; in-process asks leave the caller's alone). */
    for (size_t i = 0; job->run->opts->whole_node && pb_vis_variables[i]; i++)
        unsetenv(pb_vis_variables[i]);
    return answer_of(job->run, job->src, len);
}

/* The sources being asked (pb_rt_ask_start). */
struct pb_rt_asking {
    pb_run *run;
    const pb_rt_source *src[PB_RT_NSOURCES];
    size_t n;
    pb_children *children; /* NULL: in this process, at pb_rt_ask_wait */
    char whys[PB_RT_NSOURCES][PB_RT_WHY];
};

pb_rt_asking *pb_rt_ask_start(pb_run *run, const pb_rt_source *const *src, size_t n)
{
    pb_rt_asking *a = calloc(1, sizeof(*a));
    if (!a || n > PB_RT_NSOURCES) {
        free(a);
        return NULL;
    }
    a->run = run;
    a->n = n;
    memcpy(a->src, src, n * sizeof(*src));
    if (run->opts->runtimes_in_process)
        return a;
    unsigned timeout = run->opts->runtime_timeout_ms ? run->opts->runtime_timeout_ms
                                                     : PB_RT_TIMEOUT_MS;
    rt_job jobs[PB_RT_NSOURCES];
    void *args[PB_RT_NSOURCES];
    for (size_t i = 0; i < n; i++) {
        jobs[i] = (rt_job){run, src[i]};
        args[i] = &jobs[i];
    }
    /* the jobs are the children's once forked: they may go when this returns */
    a->children = pb_child_start(rt_answer, args, n, timeout, "its probe", NULL, NULL, a->whys);
    if (!a->children) {
        free(a);
        return NULL;
    }
    /* the programs the probe runs meanwhile (the compilers) share the bound */
    if (!run->programs_deadline_ms)
        run->programs_deadline_ms = pb_child_deadline(a->children);
    return a;
}

void pb_rt_ask_wait(pb_rt_asking *a, char **texts, char (*whys)[PB_RT_WHY])
{
    if (a->children) {
        pb_child_wait(a->children, texts);
        memcpy(whys, a->whys, a->n * sizeof(*whys));
    } else {
        for (size_t i = 0; i < a->n; i++) {
            size_t len;
            whys[i][0] = '\0';
            texts[i] = answer_of(a->run, a->src[i], &len);
            if (!texts[i])
                snprintf(whys[i], PB_RT_WHY, "out of memory");
        }
    }
    free(a);
}

void pb_rt_ask_abandon(pb_rt_asking *a)
{
    if (a->children) {
        char *texts[PB_RT_NSOURCES];
        pb_child_abandon(a->children, texts);
        for (size_t i = 0; i < a->n; i++)
            free(texts[i]);
    }
    free(a);
}
