/**
 * The memory graph and recall (the Memory Path Engine layer): {@link dev.loci.recall.MemoryNode}s
 * and {@link dev.loci.recall.MemoryEdge}s kept as versioned journal records, files turned into
 * graphs by domain packs ({@link dev.loci.recall.DomainPacks}), and recall in seven modes ({@link
 * dev.loci.recall.RecallMode}) that returns ranked items with replayable {@link
 * dev.loci.recall.MemoryPath}s. The entry point is {@link dev.loci.recall.RecallMemory}.
 *
 * <p>Every type here is an immutable value or a thread-safe service. No method accepts or returns
 * {@code null}; absent values are {@link java.util.Optional#empty()}.
 */
package dev.loci.recall;
