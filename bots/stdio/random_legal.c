/* A whistle stdio bot in C, standard library only.
 *
 * whistle writes one JSON object per line on stdin; each line whose "type"
 * is "request" is answered with one line on stdout: the index of the chosen
 * action in "legal". The rule: a uniformly random legal action, from a
 * fixed seed. Other lines are ignored. The legal actions never contain
 * quotes or brackets, so counting the strings of the "legal" array needs no
 * JSON library. See docs/stdio.md.
 *
 * Build: cc -O2 -o random_legal random_legal.c
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Request lines are a few KiB; a longer line is read in pieces. */
static char line[1 << 16];

/* How many strings the "legal" array of `text` holds. */
static int count_legal(const char *text) {
    const char *p = strstr(text, "\"legal\":[");
    int quotes = 0;
    if (p == NULL) return 0;
    for (p += 9; *p != '\0' && *p != ']'; p++) {
        if (*p == '"') quotes++;
    }
    return quotes / 2;
}

int main(void) {
    srand(2026);
    while (fgets(line, sizeof line, stdin) != NULL) {
        int n;
        if (strncmp(line, "{\"type\":\"request\"", 17) != 0) continue;
        n = count_legal(line);
        printf("%d\n", n > 0 ? rand() % n : 0);
        fflush(stdout);
    }
    return 0;
}
