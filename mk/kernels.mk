# kernels.mk — the kernel test driver for the valgrind exactness checks (tests/kernels/).
# Built from the kernel sources directly, never with sanitizers (valgrind cannot run those), and
# without PIE so that kernel addresses match `nm`.
KERN_DRIVE := $(BUILD)/tests/kern_drive
KERN_SRC := $(wildcard kernels/*.c) $(wildcard kernels/*.S)

$(KERN_DRIVE): tests/kernels/kern_drive.c $(KERN_SRC) $(wildcard kernels/*.h)
	@mkdir -p $(dir $@)
	$(CC) -O2 -g -std=gnu11 -Wall -Wextra -Ikernels -no-pie -o $@ tests/kernels/kern_drive.c $(KERN_SRC)

unit-tests: $(KERN_DRIVE)
