/**
 * Loci's engine internals: the file journal and its line format, snapshots, the command pipeline,
 * the trace layer and the interchange formats. Nothing here is API; it may change in any release.
 */
package dev.loci.internal;
