/**
 * Internals of pathway memory: the Jackson configuration for the {@code PathwayTrace} wire format
 * and the translation of Jackson errors into {@link dev.loci.InvalidRequestException}s. Not an API;
 * may change without notice.
 */
package dev.loci.pathway.internal;
