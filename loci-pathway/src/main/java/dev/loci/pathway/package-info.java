/**
 * Pathway memory (Pathway Memory Specification v1): the {@link dev.loci.pathway.PathwayTrace} wire
 * format with its nested value types, and the identity algorithms of {@link
 * dev.loci.pathway.PathwayIdentity} ({@code pathway_id}, {@code file_prefix}, {@code pathway_vec}).
 *
 * <p>Every type here is an immutable value, safe to share between threads. No method accepts or
 * returns {@code null}; absent optional wire fields are {@link java.util.Optional#empty()} or empty
 * collections.
 */
package dev.loci.pathway;
