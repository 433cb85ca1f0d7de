/**
 * In-process sentence embeddings with ONNX Runtime: {@link
 * dev.loci.embed.onnx.OnnxEmbeddingProvider} runs all-MiniLM-L6-v2 from a Maven Central jar with no
 * network, and {@link dev.loci.embed.onnx.Embeddings} builds the provider a user names ({@code
 * onnx} or {@code hashing}) with its on-disk vector cache.
 */
package dev.loci.embed.onnx;
