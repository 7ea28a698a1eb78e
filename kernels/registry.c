/* registry.c — finds the kernel families that the descriptors registered with KERN_REGISTER.
 * Adding a family needs no edit here: the linker gathers the "kern_families" section. */
#include <string.h>

#include "kern.h"

/* Weak: a build with no family yet still links (count 0). */
extern const struct kern_family *const __start_kern_families[] __attribute__((weak));
extern const struct kern_family *const __stop_kern_families[] __attribute__((weak));

unsigned kern_family_count(void)
{
	return (unsigned)(__stop_kern_families - __start_kern_families);
}

const struct kern_family *kern_family_at(unsigned i)
{
	return i < kern_family_count() ? __start_kern_families[i] : NULL;
}

const struct kern_family *kern_family_find(const char *name)
{
	for (unsigned i = 0; i < kern_family_count(); i++)
		if (strcmp(__start_kern_families[i]->name, name) == 0)
			return __start_kern_families[i];
	return NULL;
}

const struct kern_variant *kern_variant_find(const char *name, const struct kern_family **fam)
{
	const char *dot = strchr(name, '.');
	size_t flen = dot ? (size_t)(dot - name) : strlen(name);

	for (unsigned i = 0; i < kern_family_count(); i++) {
		const struct kern_family *f = __start_kern_families[i];
		if (strlen(f->name) != flen || strncmp(f->name, name, flen) != 0)
			continue;
		if (fam)
			*fam = f;
		if (!dot)
			return f->nvariants ? &f->variants[0] : NULL;
		for (unsigned j = 0; j < f->nvariants; j++)
			if (strcmp(f->variants[j].name, name) == 0)
				return &f->variants[j];
		return NULL;
	}
	if (fam)
		*fam = NULL;
	return NULL;
}

const struct kern_policy *kern_policy(const struct kern_family *f, const struct kern_variant *v)
{
	return v->policy ? v->policy : &f->policy;
}

const struct kern_variant *kern_variant_for_plot(unsigned plots, const struct kern_family **fam)
{
	for (unsigned i = 0; i < kern_family_count(); i++) {
		const struct kern_family *f = __start_kern_families[i];
		for (unsigned j = 0; j < f->nvariants; j++)
			if ((kern_policy(f, &f->variants[j])->plots & plots) == plots) {
				*fam = f;
				return &f->variants[j];
			}
	}
	*fam = NULL;
	return NULL;
}
