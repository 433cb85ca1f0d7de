/**
 * The public API of Loci: the {@link dev.loci.Loci} facade, the trace store facade {@link
 * dev.loci.Traces}, namespaces, the immutable record types it returns and the exceptions it throws.
 *
 * <p>Everything here is safe to share between threads. No method accepts or returns {@code null}.
 */
package dev.loci;
