// lx_throw.cc — C++ exceptions thrown through frames, rethrown and caught
// by type.  libgcc's unwinder reads the shadow-stack pointer (RDSSPQ) at
// every throw; without shadow stacks that instruction is a NOP.  A loop in
// a namespace (lx::mix(long), lx::step inlined into it) gives a profile
// C++ names to show, and two under the names rustc gives methods, in
// its legacy and its v0 scheme, Rust names.
#include <cstdio>
#include <stdexcept>
#include <string>

static int depth_throw(int n)
{
	if (n == 0)
		throw std::runtime_error("bottom reached");
	return depth_throw(n - 1) + 1;
}

namespace lx
{
__attribute__((always_inline)) inline long step(long h, long i)
{
	return h * 31 + (i ^ (h >> 7));
}

__attribute__((noinline)) long mix(long n)
{
	long h = 1;

	for (long i = 0; i < n; i++)
		h = step(h, i);
	return h;
}
} // namespace lx

// Rust's legacy mangling: a C++-shaped path, its punctuation escaped, a
// hash as its last element.
extern "C" long rust_fmt(long n) __asm__(
	"_ZN47_$LT$lx..Wrap$u20$as$u20$core..fmt..Display$GT$3fmt17h0123456789abcdefE");
extern "C" __attribute__((noinline)) long rust_fmt(long n)
{
	long h = 7;

	for (long i = 0; i < n; i++)
		h = h * 13 + (i & 0xff);
	return h;
}

// Rust's v0 mangling (RFC 2603): <lx::wrap::Wrap>::total.
extern "C" long rust_total(long n) __asm__("_RNvMNtCs1_2lx4wrapNtNtCs1_2lx4wrap4Wrap5total");
extern "C" __attribute__((noinline)) long rust_total(long n)
{
	long h = 3;

	for (long i = 0; i < n; i++)
		h = (h ^ i) * 5 + 1;
	return h;
}

static void rethrow(int v)
{
	try {
		throw v;
	} catch (int &e) {
		e *= 3;
		throw;
	}
}

int main()
{
	int caught = 0;

	for (int i = 0; i < 100; i++) {
		try {
			depth_throw(i % 17);
		} catch (const std::exception &e) {
			if (std::string(e.what()) == "bottom reached")
				caught++;
		}
	}
	std::printf("runtime_error caught %d times\n", caught);
	std::printf("mix %ld\n", lx::mix(300000));
	std::printf("fmt %ld\n", rust_fmt(300000));
	std::printf("total %ld\n", rust_total(300000));
	try {
		rethrow(14);
	} catch (int e) {
		std::printf("rethrown int %d\n", e);
	}
	try {
		throw std::out_of_range("range");
	} catch (const std::logic_error &e) {
		std::printf("as logic_error: %s\n", e.what());
	}
	return 0;
}
