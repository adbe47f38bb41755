// lx_throw.cc — C++ exceptions thrown through frames, rethrown and caught
// by type.  libgcc's unwinder reads the shadow-stack pointer (RDSSPQ) at
// every throw; without shadow stacks that instruction is a NOP.  A loop in
// a namespace (lx::mix(long), lx::step inlined into it) gives a profile
// C++ names to show.
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
