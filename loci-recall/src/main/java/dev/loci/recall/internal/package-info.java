/**
 * Internals of recall: the journal projection ({@code RecallLayer}) with its Lucene and vector
 * indexes, the graph algorithms, the retrieval pipeline and the built-in domain packs. Not an API;
 * may change without notice.
 */
package dev.loci.recall.internal;
