/*
 * nested.h - copies of an anonymous struct/union's model placed inside
 * the type that holds it (see nested.c).
 */
#ifndef SF_NESTED_H
#define SF_NESTED_H

#include <stddef.h>
#include <stdint.h>

#include "model.h"

/* Memory for a copy: never NULL (the loaders' arenas abort on failure). */
typedef void *(*sf_nested_alloc)(void *ctx, size_t size);

/*
 * A copy of src (laid out at offset 0) whose member offsets, and those of
 * the anonymous types nested in it, are moved by delta: the absolute
 * offsets model.h wants inside the outermost type.  Pointed-to types
 * (SF_MF_POINTEE) keep their own offsets and are shared, not copied.
 * src sits `depth` levels down; below max_depth levels the nesting is cut
 * (hostile input).
 */
struct sf_type *sf_nested_clone(const struct sf_type *src, uint64_t delta, unsigned depth,
				unsigned max_depth, sf_nested_alloc alloc, void *ctx);

#endif
