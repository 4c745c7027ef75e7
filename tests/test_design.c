/* Suite: docs/design.md is the page the code cites, and its sections exist.
 *
 * Every .c, .h, .lua and .cmake file under src/, checks/, tests/, lua/ and lessons/, and
 * CMakeLists.txt, is scanned for citations of this page: the path docs/design.md, a space, and
 * a section name in double quotes (the name may wrap onto the next comment line). Each name
 * must be a "## " or "### " heading of docs/design.md, word for word. No file may cite the
 * external brief the code once cited (the word DESIGN before a quoted section). And every link
 * of a page of docs/ (its .md files) to an anchor of design.md or sources.md, and every in-page
 * link of those two, must reach a heading by GitHub's anchor rule: lower case, spaces to '-',
 * punctuation dropped.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "cc_test.h"

#define MAX_HEADINGS 256
#define HEADING_LEN 160

/* the headings of one page, as written or as anchors */
typedef struct headings {
    int n;
    char text[MAX_HEADINGS][HEADING_LEN];
} headings;

/* the citations found and those that name no section */
typedef struct scan {
    const headings *sections;   /* the "## " and "### " headings of docs/design.md */
    int citations;              /* citations of docs/design.md seen */
    int missing;                /* ... naming no section */
    int old_brief;              /* citations of the old brief seen */
} scan;

/* The patterns, assembled here so that this file does not match them itself. */
static const char *cite_path(void) { return "docs/" "design.md"; }
static const char *old_cite(void) { return "DESIGN" " \""; }

/* the whole of CC_SOURCE_DIR/rel (free it), or NULL */
static char *read_source(const char *rel)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", CC_SOURCE_DIR, rel);
    return cc_test_read_file(path);
}

/* 1 if h holds s */
static int has(const headings *h, const char *s)
{
    for (int i = 0; i < h->n; i++)
        if (!strcmp(h->text[i], s)) return 1;
    return 0;
}

/* the heading level of line (its leading '#'s followed by a space), else 0 */
static int heading_level(const char *line)
{
    int level = 0;
    while (line[level] == '#') level++;
    return level > 0 && level <= 6 && line[level] == ' ' ? level : 0;
}

/* into h, the headings of markdown text whose level lies in lo..hi, outside code fences */
static void collect_headings(const char *text, int lo, int hi, headings *h)
{
    int fenced = 0;
    h->n = 0;
    for (const char *p = text; *p;) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        int level = heading_level(p);
        if (!strncmp(p, "```", 3)) fenced = !fenced;
        else if (!fenced && level >= lo && level <= hi && h->n < MAX_HEADINGS && len - (size_t)level - 1 < HEADING_LEN)
            snprintf(h->text[h->n++], HEADING_LEN, "%.*s", (int)(len - (size_t)level - 1), p + level + 1);
        p += len + (nl != NULL);
    }
}

/* 1 if the UTF-8 sequence at s is punctuation or a symbol, which anchors drop (Latin-1
 * punctuation, U+2000..U+2BFF: dashes, arrows, operators), 0 for a letter; *len its bytes */
static int utf8_punctuation(const unsigned char *s, int *len)
{
    unsigned cp = 0;
    if ((s[0] & 0xe0) == 0xc0 && s[1]) cp = ((s[0] & 0x1fu) << 6) | (s[1] & 0x3fu), *len = 2;
    else if ((s[0] & 0xf0) == 0xe0 && s[1] && s[2])
        cp = ((s[0] & 0x0fu) << 12) | ((s[1] & 0x3fu) << 6) | (s[2] & 0x3fu), *len = 3;
    else *len = 1;
    return (cp >= 0xa0 && cp <= 0xbf) || cp == 0xd7 || cp == 0xf7 || (cp >= 0x2000 && cp <= 0x2bff) || *len == 1;
}

/* out = GitHub's anchor of heading text: lower case, spaces to '-', '-' and '_' kept, other
 * punctuation dropped, letters outside ASCII kept */
static void anchor_of(const char *text, char *out, size_t n)
{
    size_t o = 0;
    for (const unsigned char *s = (const unsigned char *)text; *s && o + 4 < n;) {
        int len = 1;
        if (*s >= 0x80) {
            if (!utf8_punctuation(s, &len))
                for (int i = 0; i < len; i++) out[o++] = (char)s[i];
        } else if ((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '-' || *s == '_') {
            out[o++] = (char)*s;
        } else if (*s >= 'A' && *s <= 'Z') {
            out[o++] = (char)(*s - 'A' + 'a');
        } else if (*s == ' ') {
            out[o++] = '-';
        }
        s += len;
    }
    out[o] = '\0';
}

/* the anchors of every heading of markdown text */
static void collect_anchors(const char *text, headings *anchors)
{
    static headings h;
    collect_headings(text, 1, 6, &h);
    anchors->n = h.n;
    for (int i = 0; i < h.n; i++) anchor_of(h.text[i], anchors->text[i], HEADING_LEN);
}

/* 1-based line of position at inside text */
static int line_of(const char *text, const char *at)
{
    int line = 1;
    for (const char *p = text; p < at; p++) line += *p == '\n';
    return line;
}

/* p past blanks; past a line break too, with the next line's comment leader (" * ", "-- ",
 * "# ", "// "): the way a comment wraps */
static const char *skip_wrap(const char *p)
{
    while (*p == ' ' || *p == '\t') p++;
    if (*p != '\n') return p;
    for (p++; *p == ' ' || *p == '\t' || *p == '*' || *p == '-' || *p == '#' || *p == '/';) p++;
    return p;
}

/* At p, just past the path of a citation: its section name into sec (n bytes), a wrapped line
 * joined by one space; the position past the closing quote, or NULL if p starts no citation
 * (no blank, then a quote) */
static const char *read_section(const char *p, char *sec, size_t n)
{
    if (*p != ' ' && *p != '\n') return NULL;
    p = skip_wrap(p);
    if (*p != '"') return NULL;
    size_t o = 0;
    for (p++; *p && *p != '"'; p++) {
        if (*p == '\n') {
            p = skip_wrap(p) - 1;
            if (o + 1 < n) sec[o++] = ' ';
        } else if (o + 1 < n) {
            sec[o++] = *p;
        }
    }
    sec[o] = '\0';
    return *p ? p + 1 : p;
}

/* every citation in one file's text, checked against the sections */
static void check_citations(const char *rel, const char *text, scan *sc)
{
    const char *path = cite_path();
    for (const char *p = text; (p = strstr(p, path)) != NULL;) {
        char sec[HEADING_LEN];
        const char *after = read_section(p + strlen(path), sec, sizeof sec);
        if (!after) {
            p += strlen(path);
            continue;
        }
        sc->citations++;
        if (!has(sc->sections, sec)) {
            fprintf(stderr, "\n  %s:%d: cites %s \"%s\": no such section", rel, line_of(text, p), path, sec);
            sc->missing++;
        }
        p = after;
    }
    for (const char *p = text; (p = strstr(p, old_cite())) != NULL; p++) {
        int n = (int)strcspn(p, "\n");
        fprintf(stderr, "\n  %s:%d: cites the old brief (%.*s)", rel, line_of(text, p), n < 60 ? n : 60, p);
        sc->old_brief++;
    }
}

/* 1 if name ends in one of the scanned extensions */
static int scanned(const char *name)
{
    static const char *const ext[] = {".c", ".h", ".lua", ".cmake"};
    size_t len = strlen(name);
    for (size_t i = 0; i < sizeof ext / sizeof ext[0]; i++) {
        size_t e = strlen(ext[i]);
        if (len > e && !strcmp(name + len - e, ext[i])) return 1;
    }
    return 0;
}

/* check the file rel (relative to the source tree) */
static void scan_file(const char *rel, scan *sc)
{
    char *text = read_source(rel);
    CU_ASSERT_PTR_NOT_NULL(text);
    if (!text) return;
    check_citations(rel, text, sc);
    free(text);
}

/* check every scanned file under the folder rel, recursively (symbolic links not followed) */
static void scan_tree(const char *rel, scan *sc)
{
    char path[2048], child[1024];
    snprintf(path, sizeof path, "%s/%s", CC_SOURCE_DIR, rel);
    DIR *d = opendir(path);
    CU_ASSERT_PTR_NOT_NULL(d);
    if (!d) return;
    for (struct dirent *e; (e = readdir(d));) {
        struct stat st;
        if (e->d_name[0] == '.') continue;
        snprintf(child, sizeof child, "%s/%s", rel, e->d_name);
        snprintf(path, sizeof path, "%s/%s", CC_SOURCE_DIR, child);
        if (lstat(path, &st) != 0) continue;
        if (S_ISDIR(st.st_mode)) scan_tree(child, sc);
        else if (S_ISREG(st.st_mode) && scanned(e->d_name)) scan_file(child, sc);
    }
    closedir(d);
}

/* the citations of the whole tree, against the sections of docs/design.md */
static void scan_all(scan *sc)
{
    static const char *const roots[] = {"src", "checks", "tests", "lua", "lessons"};
    for (size_t i = 0; i < sizeof roots / sizeof roots[0]; i++) scan_tree(roots[i], sc);
    scan_file("CMakeLists.txt", sc);
}

static headings sections;

/* sections = the "## " and "### " headings of docs/design.md */
static void load_sections(void)
{
    char *design = read_source("docs/design.md");
    CU_ASSERT_PTR_NOT_NULL_FATAL(design);
    collect_headings(design, 2, 3, &sections);
    free(design);
}

static void test_sections_exist(void)
{
    static const char *const required[] = {"Layers", "The condition contract", "Finite-difference checks",
                                           "The eval contract", "The protocols", "Simulator"};
    load_sections();
    for (size_t i = 0; i < sizeof required / sizeof required[0]; i++) {
        if (!has(&sections, required[i])) fprintf(stderr, "\n  docs/design.md has no section '%s'", required[i]);
        CU_ASSERT(has(&sections, required[i]));
    }
}

static void test_citations_resolve(void)
{
    load_sections();
    scan sc = {.sections = &sections};
    scan_all(&sc);
    CU_ASSERT_EQUAL(sc.missing, 0);
    CU_ASSERT_EQUAL(sc.old_brief, 0);
    if (sc.citations < 7) fprintf(stderr, "\n  only %d citations of docs/design.md found", sc.citations);
    CU_ASSERT(sc.citations >= 7);   /* the scanner sees the code's citations at all */
}

/* every link in text (of docs/from) to target#anchor reaches a heading of target's anchors;
 * target "" checks in-page links "](#anchor)"; the number of links checked */
static int check_links(const char *from, const char *text, const char *target, const headings *anchors)
{
    char pat[64], anchor[HEADING_LEN];
    int links = 0;
    snprintf(pat, sizeof pat, "%s#", *target ? target : "](");
    for (const char *p = text; (p = strstr(p, pat)) != NULL;) {
        p += strlen(pat);
        size_t n = strcspn(p, ") \t\n\"");
        snprintf(anchor, sizeof anchor, "%.*s", (int)(n < HEADING_LEN ? n : HEADING_LEN - 1), p);
        links++;
        if (!has(anchors, anchor))
            fprintf(stderr, "\n  docs/%s:%d: %s#%s: no such heading", from, line_of(text, p), *target ? target : "",
                    anchor);
        CU_ASSERT(has(anchors, anchor));
    }
    return links;
}

/* the anchors of docs/name */
static void load_anchors(const char *name, headings *anchors)
{
    char rel[256];
    snprintf(rel, sizeof rel, "docs/%s", name);
    char *text = read_source(rel);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    collect_anchors(text, anchors);
    free(text);
}

/* the links of docs/name to design.md and sources.md, and its in-page links if it is one of them */
static int check_page(const char *name, const headings *design, const headings *sources)
{
    char rel[272];   /* "docs/" and a name of up to 255 */
    snprintf(rel, sizeof rel, "docs/%s", name);
    char *text = read_source(rel);
    CU_ASSERT_PTR_NOT_NULL(text);
    if (!text) return 0;
    int links = check_links(name, text, "design.md", design) + check_links(name, text, "sources.md", sources);
    if (!strcmp(name, "design.md")) links += check_links(name, text, "", design);
    if (!strcmp(name, "sources.md")) links += check_links(name, text, "", sources);
    free(text);
    return links;
}

static void test_anchors_resolve(void)
{
    static headings design, sources;
    load_anchors("design.md", &design);
    load_anchors("sources.md", &sources);
    CU_ASSERT(has(&design, "the-condition-contract"));   /* the anchor rule itself */
    CU_ASSERT(has(&design, "finite-difference-checks"));
    char path[1024];
    snprintf(path, sizeof path, "%s/docs", CC_SOURCE_DIR);
    DIR *d = opendir(path);
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    int links = 0;
    for (struct dirent *e; (e = readdir(d));) {
        size_t len = strlen(e->d_name);
        if (len > 3 && !strcmp(e->d_name + len - 3, ".md")) links += check_page(e->d_name, &design, &sources);
    }
    closedir(d);
    CU_ASSERT(links >= 3);   /* design.md's own in-page links at least */
}

int main(void)
{
    static const cc_test_case tests[] = {
        {"docs/design.md has the sections the code relies on", test_sections_exist},
        {"every citation of docs/design.md names one of its sections", test_citations_resolve},
        {"links to design.md and sources.md anchors reach a heading", test_anchors_resolve},
        {NULL, NULL}};
    return cc_test_main("design", tests);
}
