/*
 * test_util.c - the small pieces of src/util/ that the goldens reach
 * only in part: the suffix test, the checked size arithmetic, the string
 * set and the safe file reader.
 */
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "util/err.h"
#include "util/file.h"
#include "util/sha256.h"
#include "util/strbuf.h"
#include "util/strmap.h"
#include "util/text.h"

static void ends_with(void **state)
{
	(void)state;
	assert_true(pv_ends_with("r.csv", ".csv", 0));
	assert_true(pv_ends_with(".csv", ".csv", 0));
	assert_true(pv_ends_with("x", "", 0));
	assert_false(pv_ends_with("csv", ".csv", 0));
	assert_false(pv_ends_with("r.CSV", ".csv", 0));
	assert_true(pv_ends_with("r.CSV", ".csv", 1));
	assert_true(pv_ends_with("r.Json.GZ", ".json.gz", 1));
	assert_true(pv_ends_with("r.json.gz", ".JSON.GZ", 1));
	assert_false(pv_ends_with("r.json.gzx", ".json.gz", 1));
	/* Only ASCII folds: a byte above 127 matches itself alone. */
	assert_false(pv_ends_with("a\xc3\x89", "\xc3\xa9", 1));
	assert_true(pv_ends_with("a\xc3\x89", "\xc3\x89", 1));
}

/* Does f() die as an allocation that failed (SIGABRT)? */
/* f ends the process as out of memory does: exit status 4 (PV_ENOMEM). */
static int dies_oom(void (*f)(void))
{
	int st;
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (pid == 0) {
		/* The message would clutter the test's output. */
		if (!freopen("/dev/null", "w", stderr))
			_exit(2);
		f();
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &st, 0), pid);
	return WIFEXITED(st) && WEXITSTATUS(st) == PV_ENOMEM;
}

static volatile size_t big = SIZE_MAX / 2 + 1;

static void mult_overflows(void) { (void)st_mult(big, 2); }
static void add_overflows(void) { (void)st_add(big, big); }
static void alloc_array_overflows(void)
{
	uint64_t *p;

	ALLOC_ARRAY(p, big);
	free(p);
}

static void size_arithmetic(void **state)
{
	(void)state;
	assert_int_equal(st_mult(0, SIZE_MAX), 0);
	assert_int_equal(st_mult(SIZE_MAX, 1), SIZE_MAX);
	assert_int_equal(st_mult(3, 7), 21);
	assert_int_equal(st_add(SIZE_MAX - 1, 1), SIZE_MAX);
	assert_true(dies_oom(mult_overflows));
	assert_true(dies_oom(add_overflows));
	assert_true(dies_oom(alloc_array_overflows));
}

/* The string set: one copy per string, stable across growth, with its
 * hash and length in front, into the caller's arena or its own. */
static void string_set(void **state)
{
	struct arena a = ARENA_INIT;
	struct pv_strmap m;
	const char *first[5000];
	char b[32];
	int added;

	(void)state;
	pv_strmap_init(&m, &a);
	for (int i = 0; i < 5000; i++) {
		int n = snprintf(b, sizeof(b), "key %d", i);

		first[i] = pv_strmap_intern(&m, b, (size_t)n, &added);
		assert_true(added);
		assert_string_equal(first[i], b);
		assert_int_equal(pv_strmap_len(first[i]), n);
		assert_true(pv_strmap_hash(first[i]) ==
			    pv_strmap_hash_bytes(b, (size_t)n));
	}
	assert_int_equal(m.n, 5000);
	for (int i = 0; i < 5000; i++) {
		int n = snprintf(b, sizeof(b), "key %d", i);

		assert_ptr_equal(pv_strmap_intern(&m, b, (size_t)n, &added),
				 first[i]);
		assert_false(added);
	}
	/* Bytes, not C strings: a NUL inside a key counts. */
	assert_ptr_not_equal(pv_strmap_intern(&m, "a\0b", 3, NULL),
			     pv_strmap_intern(&m, "a\0c", 3, NULL));
	assert_ptr_not_equal(pv_strmap_intern(&m, "a", 1, NULL),
			     pv_strmap_intern(&m, "a\0", 2, NULL));
	/* The keys outlive the map in the caller's arena. */
	pv_strmap_release(&m);
	assert_string_equal(first[4999], "key 4999");
	arena_release(&a);

	/* Entries: zero when new, kept until changed. */
	{
		struct pv_strmap u = PV_STRMAP_INIT;
		struct pv_strmap_ent *e;

		for (int i = 0; i < 3000; i++) {
			int n = snprintf(b, sizeof(b), "%d", i % 1000);

			e = pv_strmap_put(&u, b, (size_t)n, &added);
			assert_int_equal(added, i < 1000);
			if (added) {
				assert_int_equal(e->val[0], 0);
				assert_null(e->str);
				e->val[1] = (size_t)i;
				e->str = pv_strmap_keep(&u, b);
			}
			assert_int_equal(e->val[1], i % 1000);
			assert_string_equal(e->str, b);
			assert_string_equal(e->key, b);
			e->val[0]++;
		}
		e = pv_strmap_put(&u, "7", 1, NULL);
		assert_int_equal(e->val[0], 3);
		pv_strmap_release(&u);
	}
}

static char dir[] = "/tmp/pv-util-XXXXXX";

static const char *in_dir(char *buf, size_t size, const char *name)
{
	snprintf(buf, size, "%s/%s", dir, name);
	return buf;
}

/* One reader for result files, reports and the config: each kind of
 * file that is not a regular one, the limit, and the messages. */
static void file_reader(void **state)
{
	char f[256], link[256], fifo[256], missing[256];
	struct pv_read_spec spec = {
		.what = "config ", .expect = "a config", .max = 10,
		.status = PV_EUSAGE,
	};
	struct strbuf sb = STRBUF_INIT;
	struct pv_err err = { 0 };
	FILE *fp;

	(void)state;
	assert_non_null(mkdtemp(dir));
	fp = fopen(in_dir(f, sizeof(f), "f.txt"), "w");
	assert_non_null(fp);
	fputs("hello", fp);
	assert_int_equal(fclose(fp), 0);
	assert_int_equal(symlink(f, in_dir(link, sizeof(link), "l.txt")), 0);
	assert_int_equal(mkfifo(in_dir(fifo, sizeof(fifo), "p"), 0600), 0);
	in_dir(missing, sizeof(missing), "nope");

	strbuf_addstr(&sb, "x");
	assert_int_equal(pv_read_file_spec(f, &spec, &sb, &err), 0);
	assert_string_equal(sb.buf, "xhello");
	/* A symlink is followed unless nofollow. */
	assert_int_equal(pv_read_file_spec(link, &spec, &sb, &err), 0);
	assert_string_equal(sb.buf, "xhellohello");
	spec.nofollow = 1;
	assert_int_equal(pv_read_file_spec(link, &spec, &sb, &err), -1);
	assert_int_equal(err.status, PV_EUSAGE);
	assert_non_null(strstr(err.msg, "cannot read config '"));
	assert_non_null(strstr(err.msg, "': a symbolic link, not a regular file"));
	/* A FIFO with no writer: an error at once, not a wait. */
	assert_int_equal(pv_read_file_spec(fifo, &spec, &sb, &err), -1);
	assert_non_null(strstr(err.msg, "': not a regular file (expected a config)"));
	assert_int_equal(pv_read_file_spec(dir, &spec, &sb, &err), -1);
	assert_non_null(strstr(err.msg, "': it is a directory (expected a config)"));
	assert_int_equal(pv_read_file_spec(missing, &spec, &sb, &err), -1);
	assert_non_null(strstr(err.msg, "': No such file or directory"));
	spec.missing_ok = 1;
	assert_int_equal(pv_read_file_spec(missing, &spec, &sb, &err), 1);
	/* The limit, with and without the setting that sets it. */
	spec.max = 4;
	assert_int_equal(pv_read_file_spec(f, &spec, &sb, &err), -1);
	assert_non_null(strstr(err.msg, "f.txt: larger than 4 bytes"));
	assert_null(strstr(err.msg, "("));
	assert_int_equal(pv_read_file(f, "shown", 4, &sb, &err), -1);
	assert_int_equal(err.status, PV_EINPUT);
	assert_string_equal(err.msg,
			    "shown: larger than 4 bytes (limits.max_file_size)");
	/* Errors leave the buffer as it was. */
	assert_string_equal(sb.buf, "xhellohello");
	assert_int_equal(pv_read_file(f, "shown", 5, &sb, &err), 0);
	assert_string_equal(sb.buf, "xhellohellohello");
	strbuf_release(&sb);
	unlink(f);
	unlink(link);
	unlink(fifo);
	rmdir(dir);
}

/* SHA-256 against FIPS 180-4's examples and python's hashlib, at the
 * lengths where the padding takes one block or two; base64 as CSP
 * wants it. */
static void sha256_digests(void **state)
{
	static const struct { size_t len; const char *hex, *b64; } v[] = {
		{ 0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
		  "47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=" },
		{ 3, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
		  "ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0=" },
		{ 56, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
		  "JI1qYdIGOLjlwCaTDD5gOaM85Flk/yFn9uzt1BnbBsE=" },
		{ 1000, "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3",
		  "Qe3s5C1j6Nm/UVqbppMuHCDLyfWl0TRkWttdsblzfqM=" },
		{ 768, "f3a25aa93aa2fbba28d79260535bbd6a5eb0fc1c24a8b0f04e12b484c1dfe363",
		  "86JaqTqi+7oo15JgU1u9al6w/BwkqLDwThK0hMHf42M=" },
	};
	char buf[1000];

	(void)state;
	for (size_t i = 0; i < sizeof(v) / sizeof(*v); i++) {
		unsigned char d[PV_SHA256_LEN];
		char hex[2 * PV_SHA256_LEN + 1];
		struct strbuf sb = STRBUF_INIT;

		if (v[i].len == 3)
			memcpy(buf, "abc", 3);
		else if (v[i].len == 56)
			memcpy(buf, "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 56);
		else if (v[i].len == 1000)
			memset(buf, 'a', 1000);
		else
			for (size_t j = 0; j < v[i].len; j++)
				buf[j] = (char)(j % 256);
		pv_sha256(buf, v[i].len, d);
		for (int j = 0; j < PV_SHA256_LEN; j++)
			snprintf(hex + 2 * j, 3, "%02x", d[j]);
		assert_string_equal(hex, v[i].hex);
		pv_sha256_base64(&sb, buf, v[i].len);
		assert_string_equal(sb.buf, v[i].b64);
		strbuf_release(&sb);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(ends_with),
		cmocka_unit_test(file_reader),
		cmocka_unit_test(size_arithmetic),
		cmocka_unit_test(string_set),
		cmocka_unit_test(sha256_digests),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
