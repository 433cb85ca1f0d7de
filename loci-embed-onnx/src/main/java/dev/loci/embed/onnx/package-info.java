/**
 * In-process sentence embeddings with ONNX Runtime: {@link
 * dev.loci.embed.onnx.OnnxEmbeddingProvider} runs all-MiniLM-L6-v2 from a Maven Central jar with no
 * network, {@link dev.loci.embed.onnx.SplitEmbeddingProvider} embeds documents and queries with two
 * versions of one model, and {@link dev.loci.embed.onnx.Embeddings} builds the provider a user
 * names ({@code bge-small}, {@code bge-small-q}, {@code bge-small-qd}, {@code onnx} or {@code
 * hashing}) with its on-disk vector cache.
 */
package dev.loci.embed.onnx;
