package dev.loci.embed.onnx;

import dev.loci.InvalidRequestException;
import dev.loci.recall.CachingEmbeddingProvider;
import dev.loci.recall.HashingEmbeddingProvider;
import dev.loci.recall.spi.EmbeddingProvider;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The one place that turns an embedding name a user typed ({@code --embedding onnx}, a server
 * setting) into a provider, and that knows where its vectors are cached in a data directory.
 *
 * <ul>
 *   <li>{@value #ONNX}: all-MiniLM-L6-v2 in process ({@link OnnxEmbeddingProvider#shared()}, loaded
 *       on the first text it has to embed).
 *   <li>{@value #BGE_SMALL}: bge-small-en-v1.5 in process, with its query instruction. The default:
 *       stronger than MiniLM on retrieval, about 55 texts per CPU second on a 2-core AMD EPYC
 *       (docs/benchmarks.md).
 *   <li>{@value #BGE_SMALL_Q}: the same with 8-bit quantized weights: about 2.5 times as many texts
 *       per CPU second where the CPU has int8 dot-product instructions (AVX-512 VNNI here), but not
 *       the default: its {@code embedding} mode found 0.010 (all of LoCoMo) to 0.025 (the second
 *       development set) fewer questions' evidence than the full model's, more than the 0.01 a
 *       faster default may cost, while the fused modes held within 0.01 (docs/benchmarks.md). Not
 *       batch-exact (dynamic quantization scales over the batch; cosine 0.99 or more between a text
 *       alone and in a batch).
 *   <li>{@value #BGE_SMALL_QD}: stored texts (documents) by the quantized model, queries by the
 *       full one ({@link SplitEmbeddingProvider}, model id {@value #BGE_SMALL_QD_ID}): the
 *       quantized model's ingest speed with full-precision queries; both are bge-small-en-v1.5, so
 *       their vectors share a space. Both models load, the full one on the first query.
 *   <li>{@value #BGE_SMALL_INT8}: the full model with its weight products quantized to 8 bits when
 *       it is loaded ({@link Int8Quantizer}): its vectors closer to the full model's than {@value
 *       #BGE_SMALL_Q}'s (cosine) and faster (2.2x the full model here); not the default, since its
 *       recall loses up to 0.017 on the second development set and 0.022 in {@code weighted_graph}
 *       on the long one (docs/benchmarks.md).
 *   <li>{@value #HASHING}: {@link HashingEmbeddingProvider}, word overlap, no model.
 * </ul>
 *
 * <p>Stateless and thread-safe.
 */
public final class Embeddings {
  /** The in-process sentence-embedding model. */
  public static final String ONNX = "onnx";

  /** bge-small-en-v1.5, full precision. */
  public static final String BGE_SMALL = "bge-small";

  /** bge-small-en-v1.5, quantized. */
  public static final String BGE_SMALL_Q = "bge-small-q";

  /** bge-small-en-v1.5: documents quantized, queries full precision. */
  public static final String BGE_SMALL_QD = "bge-small-qd";

  /** The model id of {@value #BGE_SMALL_QD}, under which its vectors are cached. */
  public static final String BGE_SMALL_QD_ID = "bge-small-en-v1.5-q-documents";

  /** bge-small-en-v1.5, its weight products quantized to 8 bits at load. */
  public static final String BGE_SMALL_INT8 = "bge-small-int8";

  /** The hashing provider. */
  public static final String HASHING = "hashing";

  /** The name used when none is given. */
  public static final String DEFAULT = BGE_SMALL;

  private Embeddings() {}

  /** Every name {@link #named} accepts. */
  public static List<String> names() {
    return List.of(ONNX, BGE_SMALL, BGE_SMALL_Q, BGE_SMALL_QD, BGE_SMALL_INT8, HASHING);
  }

  /**
   * The one ONNX model behind {@code name}: none for {@value #HASHING} (no model) and {@value
   * #BGE_SMALL_QD} (two).
   */
  public static Optional<OnnxModel> model(String name) {
    return Optional.ofNullable(
        switch (name) {
          case ONNX -> OnnxModel.MINILM;
          case BGE_SMALL -> OnnxModel.BGE_SMALL;
          case BGE_SMALL_Q -> OnnxModel.BGE_SMALL_Q;
          case BGE_SMALL_INT8 -> OnnxModel.BGE_SMALL_INT8;
          default -> null;
        });
  }

  /**
   * The provider called {@code name}, uncached.
   *
   * @throws InvalidRequestException naming {@code embedding} if there is none
   */
  public static EmbeddingProvider named(String name) {
    Objects.requireNonNull(name, "name");
    Optional<OnnxModel> model = model(name);
    if (model.isPresent()) {
      return OnnxEmbeddingProvider.shared(model.get());
    }
    return switch (name) {
      case BGE_SMALL_QD ->
          SplitEmbeddingProvider.of(
              BGE_SMALL_QD_ID,
              OnnxEmbeddingProvider.shared(OnnxModel.BGE_SMALL_Q),
              OnnxEmbeddingProvider.shared(OnnxModel.BGE_SMALL));
      case HASHING -> HashingEmbeddingProvider.create();
      default ->
          throw new InvalidRequestException(
              "embedding", "expected one of " + names() + ", found '" + name + "'");
    };
  }

  /** Where the vectors of model {@code modelId} are cached: {@code cache/embeddings/<id>.bin}. */
  public static Path cacheFile(Path dataDir, String modelId) {
    return CachingEmbeddingProvider.directory(dataDir).resolve(modelId + ".bin");
  }

  /**
   * The provider called {@code name} with its document vectors cached in {@code dataDir} (see
   * {@link #cacheFile}). Close it when done; the model itself stays loaded for the process.
   *
   * @throws InvalidRequestException naming {@code embedding} if there is no such provider
   * @throws dev.loci.StorageException if the cache file cannot be opened
   */
  public static CachingEmbeddingProvider open(String name, Path dataDir) {
    EmbeddingProvider provider = named(name);
    return CachingEmbeddingProvider.open(provider, cacheFile(dataDir, provider.modelId()));
  }
}
