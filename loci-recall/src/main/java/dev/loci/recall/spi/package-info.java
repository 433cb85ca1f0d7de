/**
 * Where other modules plug into recall: {@link dev.loci.recall.spi.EmbeddingProvider} turns text
 * into vectors, {@link dev.loci.recall.spi.DomainPack} turns a domain's files into nodes and edges.
 */
package dev.loci.recall.spi;
