/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What libseccomp 2.5 makes of the JSON --export-oci writes: the most
 * instructions it may compile it to, and the syscall names its table
 * lacks (scmp-run.ini(5), --export-oci).
 */
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "oci-int.h"

/*
 * A conservative count of what libseccomp 2.5.4 emits, in instructions
 * (scmp-run.ini(5), --export-oci): per ABI its checks and returns; per name
 * its number test; per name with conditions a jump, a return per entry and
 * its argument tree (lsc_level()); per return action, a copy every
 * LSC_JUMP_SPAN instructions, which libseccomp puts near jumps that cannot
 * reach the return (a jump reaches 255 instructions).
 */
#define LSC_ABI_COST   16u
#define LSC_NAME_COST  1u
#define LSC_ARGS_COST  1u
#define LSC_ENTRY_COST 1u
#define LSC_JUMP_SPAN  200u

/* One comparison node of libseccomp's argument tree: a 32-bit half of an
 * argument (hi: the upper), tested with a mask and a value, or in order
 * (op, enum oci_cube_op). */
struct lsc_node {
	uint64_t mask, value;
	uint8_t arg, hi, eq, op;
};

/* an ordered compare of a 64-bit argument is three nodes (below) */
#define LSC_CHAIN_MAX (3 * SYSCALL_ARGS_MAX)

/* The nodes of one entry, in the order libseccomp chains them. */
struct lsc_chain {
	struct lsc_node node[LSC_CHAIN_MAX];
	size_t n;
};

/* libseccomp chains an entry's comparisons by argument index, each as its
 * upper then its lower half on a 64-bit ABI (both, even where a mask
 * leaves one half out). An ordered compare there is the upper half in
 * order, then the upper half equal, then the lower half in order: counted
 * as a chain of the three, which is no shorter than what libseccomp
 * writes (the first node's match skips the other two). */
static void lsc_chain_of(const struct oci_entry *e, size_t halves, struct lsc_chain *ret)
{
	ret->n = 0;
	for (int g = 0; g < SYSCALL_ARGS_MAX; g++) {
		const struct oci_cube *c = &e->arg[g];
		uint8_t eq = c->op == OCI_CUBE_MASKED && c->mask == UINT64_MAX;
		struct lsc_node n = { c->mask, c->value, (uint8_t)g, 0, eq, (uint8_t)c->op };

		if (!c->mask)
			continue;
		if (halves == 2) {
			ret->node[ret->n] = n;
			ret->node[ret->n].hi = 1;
			ret->node[ret->n].mask = c->mask >> 32;
			ret->node[ret->n++].value = c->value >> 32;
			if (c->op != OCI_CUBE_MASKED) {
				ret->node[ret->n] = ret->node[ret->n - 1];
				ret->node[ret->n].op = OCI_CUBE_MASKED;
				ret->node[ret->n++].eq = 1;
			}
			n.mask &= UINT32_MAX;
			n.value &= UINT32_MAX;
		}
		ret->node[ret->n++] = n;
	}
}

/* The order of libseccomp's siblings: by argument and half, then by value;
 * then, where it leaves the order to the rules' (one value, two masks), by
 * kind and mask. */
static int lsc_node_cmp(const struct lsc_node *a, const struct lsc_node *b)
{
	int c = (a->arg * 2 + a->hi > b->arg * 2 + b->hi) -
		(a->arg * 2 + a->hi < b->arg * 2 + b->hi);

	if (!c)
		c = (a->value > b->value) - (a->value < b->value);
	if (!c)
		c = (a->eq > b->eq) - (a->eq < b->eq);
	if (!c)
		c = (a->op > b->op) - (a->op < b->op);
	return c ? c : (a->mask > b->mask) - (a->mask < b->mask);
}

/* Whether libseccomp may put a and b in either order (same half, value). */
static bool lsc_same_place(const struct lsc_node *a, const struct lsc_node *b)
{
	return a->arg == b->arg && a->hi == b->hi && a->value == b->value;
}

/* Nodes two chains start with alike. */
static size_t lsc_common(const struct lsc_chain *a, const struct lsc_chain *b)
{
	size_t n = 0;

	while (n < a->n && n < b->n && !lsc_node_cmp(&a->node[n], &b->node[n]))
		n++;
	return n;
}

static int lsc_chain_cmp(const void *pa, const void *pb)
{
	const struct lsc_chain *a = pa, *b = pb;
	size_t n = lsc_common(a, b);

	if (n < a->n && n < b->n)
		return lsc_node_cmp(&a->node[n], &b->node[n]);
	return (a->n > b->n) - (a->n < b->n);
}

/*
 * The instructions of the tree level at depth d of the sorted chains
 * c[lo..hi), which share their first d nodes, and of the levels below it.
 * libseccomp merges chains that start alike into one node, and writes each
 * node as a jump on its value, after a load of the argument's half and an
 * "and" with its mask unless the sibling before it (the accumulator it
 * leaves) had the same half and mask. Where two nodes share a value, their
 * order is open: each counts its load and "and". A node with nodes below it
 * counts a jump to them, and the level a jump from its last node onwards:
 * either may be too far for the test's own.
 */
static size_t lsc_level(const struct lsc_chain *c, size_t lo, size_t hi, size_t d)
{
	const struct lsc_node *prev = NULL; /* the node before, alone at its value */
	size_t insns = 0, i = lo;

	while (i < hi && c[i].n <= d) /* chains that end above: sorted first */
		i++;
	if (i < hi)
		insns++;
	while (i < hi) {
		const struct lsc_node *first = &c[i].node[d];
		size_t end = i, distinct = 0;

		while (end < hi && lsc_same_place(&c[end].node[d], first))
			end++;
		for (size_t s = i; s < end;) {
			size_t e = s;

			while (e < end && !lsc_node_cmp(&c[e].node[d], &c[s].node[d]))
				e++;
			distinct++;
			insns += 1 + lsc_level(c, s, e, d + 1);
			if (c[e - 1].n > d + 1)
				insns++;
			s = e;
		}
		if (distinct > 1 || !prev || prev->arg != first->arg || prev->hi != first->hi ||
		    prev->eq != first->eq || prev->mask != first->mask)
			insns += 2 * distinct;
		prev = distinct == 1 ? first : NULL;
		i = end;
	}
	return insns;
}

/* The upper half of what a cube tests: libseccomp's node for it. */
static bool lsc_upper_same(const struct oci_cube *a, const struct oci_cube *b)
{
	return a->mask >> 32 == b->mask >> 32 && a->value >> 32 == b->value >> 32 && a->op == b->op;
}

/*
 * libseccomp 2.5.4 loops without end adding the second of two entries
 * that test an argument with "> 0" (which it keeps as the upper half
 * greater, else equal and the lower half greater) and then a later
 * argument with upper halves that differ, whatever their actions and
 * whatever else they test: found by tests/oci/test-libseccomp.c on random
 * profiles, and refused where the export would write it (scmp-run.ini(5),
 * --export-oci). Checked for every pair, whether their tests before the
 * argument agree or not: the cost of refusing a pair libseccomp would
 * have taken is an error, of writing one it does not, a runtime that
 * never starts the container.
 */
bool oci_lsc_loops(const struct oci_entry *entries, size_t n)
{
	for (size_t p = 0; p < n; p++)
		for (size_t q = p + 1; q < n; q++)
			for (int i = 0; i < SYSCALL_ARGS_MAX; i++) {
				if (entries[p].arg[i].op != OCI_CUBE_GT ||
				    entries[q].arg[i].op != OCI_CUBE_GT)
					continue;
				for (int j = i + 1; j < SYSCALL_ARGS_MAX; j++)
					if (!lsc_upper_same(&entries[p].arg[j], &entries[q].arg[j]))
						return true;
			}
	return false;
}

/* The instructions of libseccomp's argument tree for the entries of name
 * on one ABI (lsc_level()); SIZE_MAX when out of memory. */
static size_t lsc_tree_insns(const struct oci_entry *entries, size_t n_entries, const char *name,
			     size_t halves)
{
	struct lsc_chain *chains = NULL;
	size_t n = 0, cap = 0, insns;

	for (size_t j = 0; j < n_entries; j++) {
		const struct oci_entry *e = &entries[j];
		bool named = false;
		struct lsc_chain *c;

		for (size_t k = 0; k < e->n_names && !named; k++)
			named = e->names[k] == name || !strcmp(e->names[k], name);
		if (!named)
			continue;
		c = array_grow(&chains, &n, &cap, sizeof(*c));
		if (!c) {
			free(chains);
			return SIZE_MAX;
		}
		lsc_chain_of(e, halves, c);
	}
	if (n > 1)
		qsort(chains, n, sizeof(*chains), lsc_chain_cmp);
	insns = lsc_level(chains, 0, n, 0);
	free(chains);
	return insns;
}

/* Whether e names name (the policy's string, or a copy of it). */
static bool entry_names(const struct oci_entry *e, const char *name)
{
	for (size_t k = 0; k < e->n_names; k++)
		if (e->names[k] == name || !strcmp(e->names[k], name))
			return true;
	return false;
}

size_t oci_lsc_name_insns(const struct policy *p, const struct oci_entry *entries, size_t n_entries,
			  const char *name)
{
	size_t total = 0;

	for (size_t i = 0; i < p->n_abis; i++) {
		const struct arch *a = p->abis[i].arch;
		size_t one = LSC_NAME_COST,
		       tree = lsc_tree_insns(entries, n_entries, name, a->bits == 64 ? 2 : 1);

		if (tree == SIZE_MAX)
			return SIZE_MAX;
		if (tree) { /* else its test jumps to a shared return */
			one += LSC_ARGS_COST + tree;
			for (size_t j = 0; j < n_entries; j++)
				one += entry_names(&entries[j], name) ? LSC_ENTRY_COST : 0;
		}
		/* a multiplexed sub-call's rules are written onto the
		 * multiplexer as well */
		total += arch_mux_subcall(a, name, NULL) ? 2 * one : one;
	}
	return total;
}

/* The return actions of the entries, the defaultAction and bad-arch one
 * left out. */
static size_t return_actions(const struct oci_entry *entries, size_t n_entries)
{
	size_t n = 0;

	for (size_t i = 0; i < n_entries; i++) {
		bool seen = false;

		for (size_t j = 0; j < i && !seen; j++)
			seen = entries[j].ret == entries[i].ret;
		n += !seen;
	}
	return n;
}

size_t oci_lsc_program_insns(const struct policy *p, const struct oci_entry *entries,
			     size_t n_entries, size_t names_insns)
{
	size_t total = p->n_abis * LSC_ABI_COST + names_insns;

	return total + (total / LSC_JUMP_SPAN + 1) * (return_actions(entries, n_entries) + 2);
}

/*
 * The syscall names libseccomp 2.5 cannot resolve (its table reaches
 * futex_requeue, Linux 6.7; Debian 12's 2.5.4 has the same), each unknown
 * on every ABI that has it, or after a ':' on that ABI alone; checked
 * against the library by tests/oci/test-libseccomp.c. runc and crun skip
 * the entries of a name they cannot resolve (scmp-run.ini(5),
 * --export-oci).
 */
static const char lsc_unknown[] =
	"uretprobe\0uprobe\0statmount\0listmount\0lsm_get_self_attr\0lsm_set_self_attr\0"
	"lsm_list_modules\0mseal\0setxattrat\0getxattrat\0listxattrat\0removexattrat\0"
	"open_tree_attr\0file_getattr\0file_setattr\0listns\0riscv_hwprobe\0"
	"map_shadow_stack:x32\0";

bool oci_libseccomp_unknown(const struct arch *a, const char *name)
{
	size_t n = strlen(name);

	for (const char *u = lsc_unknown; *u; u += strlen(u) + 1)
		if (!strncmp(u, name, n) && (!u[n] || (u[n] == ':' && !strcmp(u + n + 1, a->name))))
			return true;
	return false;
}
