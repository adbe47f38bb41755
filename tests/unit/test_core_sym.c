/* Unit tests for core/sym.c: symbolise addresses of this very program
 * (functions, data objects, name lookups, code bytes, overlapping images). */
#define _GNU_SOURCE
#include <link.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "core/sym.h"

/* A function with a known name and some size, not inlined away. */
__attribute__((noinline)) int sym_test_target(int x)
{
	__asm__ volatile("" : "+r"(x));
	return x * 3 + 1;
}

/* A function under a C++ name (ns::target(int)), as g++ would emit it. */
__attribute__((noinline)) int sym_test_cxx(int x) __asm__("_ZN2ns6targetEi");
__attribute__((noinline)) int sym_test_cxx(int x)
{
	__asm__ volatile("" : "+r"(x));
	return x * 5 + 2;
}

/* A data object with a known size. */
uint32_t sym_test_object[16] = { 1 };

static int first_object(struct dl_phdr_info *info, size_t size, void *data)
{
	(void)size;
	*(uint64_t *)data = info->dlpi_addr;
	return 1; /* the main program comes first */
}

static uint64_t self_bias(void)
{
	uint64_t bias = 0;

	dl_iterate_phdr(first_object, &bias);
	return bias;
}

static void self_path(char *buf, size_t n)
{
	ssize_t len = readlink("/proc/self/exe", buf, n - 1);

	assert_true(len > 0);
	buf[len] = 0;
}

static void test_finds_own_function(void **state)
{
	char exe[PATH_MAX], desc[PATH_MAX + 64], want[PATH_MAX + 64];
	uint64_t addr = (uint64_t)(uintptr_t)&sym_test_target;
	struct sym *s = sym_new();
	struct sym_info si;

	(void)state;
	assert_non_null(s);
	self_path(exe, sizeof(exe));
	assert_int_equal(sym_add_image(s, exe, addr & ~0xfffull, addr + 0x100000, self_bias()), 0);
	assert_int_equal(sym_lookup(s, addr + 2, &si), 0);
	assert_string_equal(si.name, "sym_test_target");
	assert_int_equal(si.off, 2);
	assert_string_equal(si.path, exe);
	assert_int_equal(si.file_addr, addr + 2 - self_bias());
	snprintf(want, sizeof(want), "sym_test_target+0x2 in %s", exe);
	assert_string_equal(sym_describe(s, addr + 2, desc, sizeof(desc)), want);
	sym_free(s);
}

static void test_two_images(void **state)
{
	char exe[PATH_MAX];
	uint64_t addr = (uint64_t)(uintptr_t)&sym_test_target;
	struct sym *s = sym_new();
	struct sym_info si;

	(void)state;
	self_path(exe, sizeof(exe));
	/* an unreadable image first, then the real one: both are kept */
	assert_int_equal(sym_add_image(s, "/nonexistent/libfoo.so", 0x10000, 0x20000, 0x10000), -1);
	assert_int_equal(sym_add_image(s, exe, addr & ~0xfffull, addr + 0x100000, self_bias()), 0);
	assert_int_equal(sym_lookup(s, 0x10010, &si), 1);
	assert_string_equal(si.path, "/nonexistent/libfoo.so");
	assert_int_equal(si.file_addr, 0x10);
	assert_int_equal(sym_lookup(s, addr, &si), 0);
	assert_string_equal(si.name, "sym_test_target");
	sym_free(s);
}

static void test_bad_files_never_crash(void **state)
{
	struct sym *s = sym_new();
	struct sym_info si;
	char desc[128];

	(void)state;
	assert_int_equal(sym_add_image(s, "/etc/passwd", 0x1000, 0x2000, 0x1000), -1);
	assert_int_equal(sym_add_image(s, "/", 0x3000, 0x4000, 0x3000), -1);
	assert_int_equal(sym_add_image(s, "[vdso]", 0x5000, 0x6000, 0x5000), -1);
	assert_int_equal(sym_lookup(s, 0x1800, &si), 1);
	assert_string_equal(sym_describe(s, 0x1800, desc, sizeof(desc)), "/etc/passwd+0x800");
	assert_string_equal(sym_describe(s, 0x5004, desc, sizeof(desc)), "[vdso]+0x4");
	assert_int_equal(sym_lookup(s, 0x9000, &si), -1);
	assert_null(si.path);
	assert_string_equal(sym_describe(s, 0x9000, desc, sizeof(desc)), "");
	sym_free(s);
	sym_free(NULL);
}

static struct sym *self_session(void)
{
	char exe[PATH_MAX];
	uint64_t addr = (uint64_t)(uintptr_t)&sym_test_target;
	struct sym *s = sym_new();

	assert_non_null(s);
	self_path(exe, sizeof(exe));
	assert_int_equal(sym_add_image(s, exe, self_bias(), addr + 0x400000, self_bias()), 0);
	return s;
}

static void test_size_and_dso(void **state)
{
	uint64_t addr = (uint64_t)(uintptr_t)&sym_test_target;
	struct sym *s = self_session();
	struct sym_info si, end;

	(void)state;
	assert_int_equal(sym_lookup(s, addr, &si), 0);
	assert_int_equal(si.start, addr);
	assert_true(si.size > 2 && si.size < 64);
	assert_string_equal(si.dso, "test_core_sym");
	/* the last byte is in, the next is not this symbol */
	assert_int_equal(sym_lookup(s, addr + si.size - 1, &end), 0);
	assert_string_equal(end.name, "sym_test_target");
	assert_int_equal(end.off, si.size - 1);
	if (sym_lookup(s, addr + si.size, &end) == 0)
		assert_string_not_equal(end.name, "sym_test_target");
	sym_free(s);
}

static void test_data_objects(void **state)
{
	uint64_t addr = (uint64_t)(uintptr_t)sym_test_object;
	struct sym *s = self_session();
	struct sym_info si;

	(void)state;
	assert_int_equal(sym_lookup_data(s, addr + 13, &si), 0);
	assert_string_equal(si.name, "sym_test_object");
	assert_int_equal(si.off, 13);
	assert_int_equal(si.size, sizeof(sym_test_object));
	/* data is not code, code is not data */
	assert_int_equal(sym_lookup(s, addr, &si), 1);
	assert_int_equal(sym_lookup_data(s, (uint64_t)(uintptr_t)&sym_test_target, &si), 1);
	sym_free(s);
}

struct walk {
	int seen;
	uint64_t last;
	int sorted;
};

static int walk_fn(const struct sym_info *si, void *arg)
{
	struct walk *w = arg;

	if (si->start < w->last)
		w->sorted = 0;
	w->last = si->start;
	w->seen++;
	return !strcmp(si->name, "sym_test_target") ? 7 : 0;
}

static void test_find_and_walk(void **state)
{
	uint64_t addr = (uint64_t)(uintptr_t)&sym_test_target;
	struct sym *s = self_session();
	struct sym_info si;
	struct walk w = { 0, 0, 1 };
	const uint8_t *code;

	(void)state;
	assert_int_equal(sym_find_func(s, "sym_test_target", &si), 0);
	assert_int_equal(si.start, addr);
	assert_int_equal(sym_find_func(s, "no_such_function_here", &si), -1);
	/* the walk stops at sym_test_target, returning what the callback did */
	assert_int_equal(sym_foreach_func(s, addr, walk_fn, &w), 7);
	assert_true(w.seen > 1);
	assert_int_equal(w.last, addr);
	assert_true(w.sorted);
	assert_int_equal(sym_foreach_func(s, 0x10, walk_fn, &w), -1);
	/* the file's bytes are the bytes that run */
	assert_int_equal(sym_find_func(s, "sym_test_target", &si), 0);
	code = sym_code(s, si.start, si.size);
	assert_non_null(code);
	assert_memory_equal(code, (const void *)(uintptr_t)addr, si.size);
	assert_null(sym_code(s, 0x10, 4));
	assert_null(sym_code(s, addr, 1ull << 40));
	sym_free(s);
}

static void test_demangle_names(void **state)
{
	static const char *const cases[][2] = {
		{ "_Z3fooi", "foo(int)" },
		{ "_ZN2ns6targetEi", "ns::target(int)" },
		{ "_ZN2ns1fEv@plt", "ns::f()@plt" },
		{ "_ZNSt6vectorIiSaIiEE9push_backERKi@@GLIBCXX_3.4",
		  "std::vector<int, std::allocator<int> >::push_back(int const&)@@GLIBCXX_3.4" },
		{ "_ZN2ns3AccIlE3addERKl", "ns::Acc<long>::add(long const&)" },
		/* Rust's legacy names: the hash dropped, the escapes undone */
		{ "_ZN4core3fmt9Formatter3pad17h6ccbd0b0b5e29c28E", "core::fmt::Formatter::pad" },
		{ "_ZN4core3fmt9Formatter3pad17h6ccbd0b0b5e29c28E.llvm.7364",
		  "core::fmt::Formatter::pad.llvm.7364" }, /* (link-time optimized) */
		{ "_ZN4a..b17h6ccbd0b0b5e29c28E.llvm.1.2", "a::b.llvm.1.2" },
		{ "_ZN60_$LT$alloc..string..String$u20$as$u20$core..fmt..Display$GT$3fmt17h0123456789abcdefE",
		  "<alloc::string::String as core::fmt::Display>::fmt" },
		{ "_ZN4main4main28_$u7b$$u7b$closure$u7d$$u7d$17h0123456789abcdefE@plt",
		  "main::main::{{closure}}@plt" },
		{ "_ZN3std2rt10lang_start17h0123456789ABCDEFE",
		  "std::rt::lang_start::h0123456789ABCDEF" }, /* (not hex as rustc writes it) */
		{ "_ZN4test4$XX$17h0123456789abcdefE", "test::$XX$::h0123456789abcdef" },
		/* Rust's v0 names (RFC 2603), as rustc-demangle's alternate form
		 * (no crate hashes, no constant suffixes) */
		{ "_RNvNtCs1234_7mycrate3bar3baz", "mycrate::bar::baz" },
		{ "_RINvNtC3std3mem8align_ofjEC3std", "std::mem::align_of::<usize>" },
		{ "_RNCNvC5hello4mains_0", "hello::main::{closure#1}" },
		{ "_RNvMNtC3std4pathNtNtC3std4path4Path6as_str", "<std::path::Path>::as_str" },
		{ "_RNvXs0_NtC3foo3barINtC3foo3VeclENtC3std5Clone5clone@plt",
		  "<foo::Vec<i32> as std::Clone>::clone@plt" },
		{ "_RINvC3foo3barTlRShEE", "foo::bar::<(i32, &[u8])>" },
		{ "_RINvC3foo3barNtB2_3BazE", "foo::bar::<foo::Baz>" }, /* a back-reference */
		{ "_RINvC3foo3barFUKCjEyE", "foo::bar::<unsafe extern \"C\" fn(usize) -> u64>" },
		{ "_RINvC3foo3barFK11C_cmse_callEuE", "foo::bar::<extern \"C-cmse-call\" fn()>" },
		{ "_RINvC3foo3barDG_INtC3std2FnTRL0_hEEp6OutputuEL_E",
		  "foo::bar::<dyn for<'a> std::Fn<(&'a u8,), Output = ()>>" },
		{ "_RINvC3foo3barQL_hPhOzE", "foo::bar::<&mut u8, *const u8, *mut !>" },
		{ "_RINvC3foo3barKj10_Kln5_Kb1_Kc61_E", "foo::bar::<16, -5, true, 'a'>" },
		{ "_RINvC3foo3barKy123456789abcdef01_E", "foo::bar::<0x123456789abcdef01>" },
		{ "_RINvC3foo3barAhj4_TlEE", "foo::bar::<[u8; 4], (i32,)>" },
		{ "_RNvC3foo3bar.llvm.1234", "foo::bar.llvm.1234" },
		/* constants of rustc's extensions (rustc-demangle's tests'):
		 * str, references, arrays, tuples, structs and variants; a
		 * compound one in a type's arguments in braces */
		{ "_RIC0Ke616263_E", "::<{*\"abc\"}>" },
		{ "_RIC0Ke27_E", "::<{*\"'\"}>" },
		{ "_RIC0Ke090a_E", "::<{*\"\\t\\n\"}>" },
		{ "_RIC0Kee28882c3bc_E", "::<{*\"\u2202\u00fc\"}>" },
		{ "_RIC0Kef09f908a20c2a7_E", "::<{*\"\U0001f40a \u00a7\"}>" },
		{ "_RIC0KRe7f00_E", "::<\"\\u{7f}\\0\">" },
		{ "_RIC0KRpE", "::<{&_}>" },
		{ "_RIC0KRc58_E", "::<{&'X'}>" },
		{ "_RIC0KRRRe_E", "::<{&&\"\"}>" },
		{ "_RIC0KQAEE", "::<{&mut []}>" },
		{ "_RIC0KAAh1_h2_EAh3_h4_EEE", "::<{[[1, 2], [3, 4]]}>" },
		{ "_RIC0KTj0_EE", "::<{(0,)}>" },
		{ "_RIC0KTRe616263_c78_RAh1_h2_h3_EEE", "::<{(\"abc\", 'x', &[1, 2, 3])}>" },
		{ "_RIC0KVNvINtNtC4core6option6OptionjE4SomeTj0_EE",
		  "::<{core::option::Option::<usize>::Some(0)}>" },
		{ "_RIC0KVNvINtNtC4core6option6OptionjE4NoneUE",
		  "::<{core::option::Option::<usize>::None}>" },
		{ "_RIC0KVNtC3foo3BarS1sRe616263_2chc78_5sliceRAh1_h2_h3_EEE",
		  "::<{foo::Bar { s: \"abc\", ch: 'x', slice: &[1, 2, 3] }}>" },
		{ "_RIC0Kc2202_Kc27_E", "::<'\u2202', '\\''>" },
		{ "_RINvC3foo3barAhRe61_E",
		  "foo::bar::<[u8; \"a\"]>" }, /* (in a value: no braces) */
		/* non-ASCII identifiers: Punycode, '-' written '_' (Python's
		 * "café".encode("punycode") is "caf-dma") */
		{ "_RNvC5crateu7caf_dma", "crate::caf\u00e9" },
		{ "_RNvNtC5crateu13lodajc4ae4b6fu10nave_x_jwa",
		  "crate::\u10e1\u10d0\u10ed\u10db\u10d4\u10da\u10d0\u10d3::na\u00efve_x" },
	};
	uint64_t addr = (uint64_t)(uintptr_t)&sym_test_cxx;
	struct sym *s = self_session();
	struct sym_info si;
	char *d;

	(void)state;
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		d = sym_demangle(cases[k][0]);
		assert_non_null(d);
		assert_string_equal(d, cases[k][1]);
		free(d);
	}
	/* C names, and what is not a mangled name, stay as they are */
	assert_null(sym_demangle("main"));
	assert_null(sym_demangle("_Z"));
	assert_null(sym_demangle("_Zxyz!"));
	assert_null(sym_demangle("@plt"));
	/* damaged v0 names: cut short, a reference forward, a bound lifetime
	 * not bound, trailing bytes, Punycode without its digits or with
	 * one that is not, a version number (none but v0 is defined) */
	assert_null(sym_demangle("_RNvC3foo"));
	assert_null(sym_demangle("_R"));
	assert_null(sym_demangle("_RB0_"));
	assert_null(sym_demangle("_RINvC3foo3barRL1_hE"));
	assert_null(sym_demangle("_RNvC3foo3barXYZ"));
	assert_null(sym_demangle("_RNvC5crateu3___"));
	assert_null(sym_demangle("_RNvC5crateu4caf_"));
	assert_null(sym_demangle("_RNvC5crateu7caf_dm!"));
	assert_null(sym_demangle("_R0NvC3foo3bar"));
	/* damaged constants: an odd number of digits in a str, bytes that
	 * are not UTF-8 (alone, overlong, a surrogate), a char that is a
	 * surrogate, a variant of no kind, a list without its end */
	assert_null(sym_demangle("_RIC0Ke616_E"));
	assert_null(sym_demangle("_RIC0Kec3_E"));
	assert_null(sym_demangle("_RIC0Kec0af_E"));
	assert_null(sym_demangle("_RIC0Keeda080_E"));
	assert_null(sym_demangle("_RIC0Kcd800_E"));
	assert_null(sym_demangle("_RIC0KVNtC3foo3BarXE"));
	assert_null(sym_demangle("_RIC0KAh1_"));
	assert_null(sym_demangle(NULL));
	/* lookups show the demangled name; either name finds the function */
	assert_int_equal(sym_lookup(s, addr + 1, &si), 0);
	assert_string_equal(si.name, "ns::target(int)");
	assert_int_equal(sym_find_func(s, "ns::target(int)", &si), 0);
	assert_int_equal(si.start, addr);
	assert_int_equal(sym_find_func(s, "_ZN2ns6targetEi", &si), 0);
	assert_int_equal(si.start, addr);
	assert_int_equal(sym_lookup(s, (uint64_t)(uintptr_t)&sym_test_target, &si), 0);
	assert_string_equal(si.name, "sym_test_target");
	/* names libdw owns (inline frames): demangled once, then the same */
	static const char dwarf_name[] = "_ZN2ns6targetEi";
	const char *shown = sym_name_shown(s, dwarf_name);
	assert_string_equal(shown, "ns::target(int)");
	assert_ptr_equal(sym_name_shown(s, dwarf_name), shown);
	assert_ptr_equal(sym_name_shown(s, "main"), "main");
	static char many[600][8]; /* (the table grows past its first size) */
	for (int k = 0; k < 600; k++) {
		memcpy(many[k], "_Z1fi", 6);
		assert_string_equal(sym_name_shown(s, many[k]), "f(int)");
	}
	assert_ptr_equal(sym_name_shown(s, dwarf_name), shown);
	assert_string_equal(sym_name_shown(s, many[17]), "f(int)");
	/* raw names on request */
	sym_set_demangle(s, 0);
	assert_ptr_equal(sym_name_shown(s, dwarf_name), dwarf_name);
	assert_int_equal(sym_lookup(s, addr, &si), 0);
	assert_string_equal(si.name, "_ZN2ns6targetEi");
	assert_int_equal(sym_find_func(s, "ns::target(int)", &si), -1);
	sym_set_demangle(s, 1);
	assert_int_equal(sym_lookup(s, addr, &si), 0);
	assert_string_equal(si.name, "ns::target(int)");
	assert_int_equal(sym_test_cxx(1), 7);
	sym_free(s);
}

static void test_build_id(void **state)
{
	struct sym *s = self_session();
	const uint8_t *id;

	(void)state;
	/* gcc on Debian links with --build-id: a 20-byte SHA-1 */
	assert_int_equal(sym_build_id(s, (uint64_t)(uintptr_t)&sym_test_target, &id), 20);
	assert_non_null(id);
	assert_int_equal(sym_build_id(s, 0x10, &id), 0);
	assert_null(id);
	sym_free(s);
}

/* A later image replaces what it overlaps, as mmap does; the parts of the
 * older one left on either side keep their attribution. */
static void test_overlapping_images(void **state)
{
	struct sym *s = sym_new();
	struct sym_info si;

	(void)state;
	sym_add_image(s, "[a]", 0x10000, 0x20000, 0x10000);
	sym_add_image(s, "[b]", 0x14000, 0x15000, 0x14000);
	assert_int_equal(sym_lookup(s, 0x13fff, &si), 1);
	assert_string_equal(si.dso, "[a]");
	assert_int_equal(sym_lookup(s, 0x14000, &si), 1);
	assert_string_equal(si.dso, "[b]");
	assert_int_equal(si.file_addr, 0);
	assert_int_equal(sym_lookup(s, 0x15000, &si), 1);
	assert_string_equal(si.dso, "[a]");
	assert_int_equal(si.file_addr, 0x5000);
	sym_add_image(s, "[c]", 0x8000, 0x30000, 0);
	assert_int_equal(sym_lookup(s, 0x14800, &si), 1);
	assert_string_equal(si.dso, "[c]");
	assert_int_equal(sym_add_image(s, "[d]", 0x5000, 0x5000, 0), -1); /* empty */
	assert_int_equal(sym_lookup(s, 0x5000, &si), -1);
	sym_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_finds_own_function),    cmocka_unit_test(test_two_images),
		cmocka_unit_test(test_bad_files_never_crash), cmocka_unit_test(test_size_and_dso),
		cmocka_unit_test(test_data_objects),	      cmocka_unit_test(test_find_and_walk),
		cmocka_unit_test(test_demangle_names),	      cmocka_unit_test(test_build_id),
		cmocka_unit_test(test_overlapping_images),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
