/**
 * Where extractors plug into governed memory: an {@link dev.loci.govern.spi.Extractor} reads an
 * interaction or a chunk and returns {@link dev.loci.govern.spi.Proposal}s, which become
 * candidates.
 */
package dev.loci.govern.spi;
