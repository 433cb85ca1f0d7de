package dev.loci.embed.onnx;

import ai.djl.huggingface.tokenizers.Encoding;
import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import dev.loci.StorageException;
import dev.loci.recall.spi.EmbeddingProvider;
import java.io.IOException;
import java.io.InputStream;
import java.nio.FloatBuffer;
import java.nio.LongBuffer;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A sentence-embedding model ({@link OnnxModel}: all-MiniLM-L6-v2 by default, or bge-small-en-v1.5
 * quantized or not) run in process by ONNX Runtime: 384 dimensions, mean or {@code [CLS]} pooling
 * as the model requires, L2-normalized; a query gets the model's instruction prefix, a document
 * none.
 *
 * <p>The model (for example {@code all-minilm-l6-v2.onnx}) and its tokenizer ({@code
 * all-minilm-l6-v2-tokenizer.json}) are read from the class path, where the Maven Central jars
 * {@code dev.langchain4j:langchain4j-embeddings-*} put them; the tokenizer runs in DJL's
 * HuggingFace tokenizers library, whose native code for Linux, macOS and Windows is inside its jar
 * too. Nothing is fetched at run time: loading this class sets {@code ai.djl.offline} and {@code
 * OPT_OUT_TRACKING}, which stop DJL from downloading native libraries and from reporting usage. DJL
 * copies its native library to {@code ~/.djl.ai} once; ONNX Runtime copies its own to a temporary
 * directory.
 *
 * <p>Design: texts are tokenized (at most the model's {@link OnnxModel#maxTokens()} tokens, longer
 * ones truncated as sentence-transformers does), sorted by token count, and run in batches of
 * similar lengths padded to the longest, so a batch wastes little work on padding; the attention
 * mask keeps padding out of the mean. Vectors are returned in the callers' order. A text embedded
 * alone and in a batch gives the same vector up to float rounding (about 1e-6).
 *
 * <p>The model loads on first use (2-3 s on two busy cores, and 90 MB of heap for the model bytes
 * while the session is built). Thread-safe: ONNX Runtime sessions and the tokenizer may be used
 * concurrently.
 */
public final class OnnxEmbeddingProvider implements EmbeddingProvider, AutoCloseable {
  /** The model id of all-MiniLM-L6-v2, the model of {@link #create()}. */
  public static final String MODEL_ID = "all-minilm-l6-v2";

  /** The number of dimensions. */
  public static final int DIMENSION = OnnxModel.DIMENSION;

  /**
   * Texts per model run unless told otherwise. 16 embedded the most texts per CPU second on two
   * cores: 144 against 123 at 32 for bge-small-en-v1.5 quantized, 56 against 49 for the full model
   * (less padding), and 112 at 1 (the per-run overhead); docs/benchmarks.md.
   */
  public static final int DEFAULT_BATCH_SIZE = 16;

  /**
   * ONNX Runtime's intra-op threads: one per processor the JVM sees, so a batch's matrix products
   * use every core.
   */
  static final int INTRA_OP_THREADS = Runtime.getRuntime().availableProcessors();

  /** Tokens per text for all-MiniLM-L6-v2, special tokens included; the rest is cut. */
  public static final int MAX_TOKENS = 256;

  static {
    System.setProperty("ai.djl.offline", "true");
    System.setProperty("OPT_OUT_TRACKING", "true");
  }

  private static final class Shared {
    static final Map<OnnxModel, OnnxEmbeddingProvider> INSTANCES = new ConcurrentHashMap<>();
  }

  /** The loaded model: an ONNX Runtime session and the tokenizer. */
  private record Model(OrtSession session, HuggingFaceTokenizer tokenizer, List<String> inputs) {}

  private final OnnxModel spec;
  private final int batchSize;
  private final boolean spinning;
  private final boolean shared;
  private final Object loadLock = new Object();
  private volatile Model model;
  private boolean closed;

  private OnnxEmbeddingProvider(OnnxModel spec, int batchSize, boolean spinning, boolean shared) {
    this.spinning = spinning;
    this.spec = spec;
    this.batchSize = batchSize;
    this.shared = shared;
  }

  /**
   * An all-MiniLM-L6-v2 provider that runs {@value #DEFAULT_BATCH_SIZE} texts per model run. Close
   * it when done.
   */
  public static OnnxEmbeddingProvider create() {
    return create(DEFAULT_BATCH_SIZE);
  }

  /**
   * A provider that runs up to {@code batchSize} texts per model run; 1 runs every text alone.
   * Close it when done.
   *
   * @throws IllegalArgumentException if {@code batchSize} is not positive
   */
  public static OnnxEmbeddingProvider create(int batchSize) {
    return create(OnnxModel.MINILM, batchSize);
  }

  /**
   * A provider of {@code spec} that runs up to {@code batchSize} texts per model run. Close it when
   * done.
   *
   * @throws IllegalArgumentException if {@code batchSize} is not positive
   */
  public static OnnxEmbeddingProvider create(OnnxModel spec, int batchSize) {
    return create(spec, batchSize, false);
  }

  /**
   * {@link #create(OnnxModel, int)} with ONNX Runtime's intra-op workers spinning while they wait
   * for work ({@code spinning}, ONNX Runtime's own default) or sleeping (this class's default):
   * spinning can shorten a run on cores nothing else uses and wastes them on shared ones.
   *
   * @throws IllegalArgumentException if {@code batchSize} is not positive
   */
  public static OnnxEmbeddingProvider create(OnnxModel spec, int batchSize, boolean spinning) {
    Objects.requireNonNull(spec, "spec");
    if (batchSize < 1) {
      throw new IllegalArgumentException("batchSize must be at least 1, got " + batchSize);
    }
    return new OnnxEmbeddingProvider(spec, batchSize, spinning, false);
  }

  /**
   * The all-MiniLM-L6-v2 provider shared by the whole process, so the model loads at most once per
   * JVM. It is never closed; closing it throws.
   */
  public static OnnxEmbeddingProvider shared() {
    return shared(OnnxModel.MINILM);
  }

  /**
   * The provider of {@code spec} shared by the whole process (one per model), so each model loads
   * at most once per JVM. It is never closed; closing it throws.
   */
  public static OnnxEmbeddingProvider shared(OnnxModel spec) {
    Objects.requireNonNull(spec, "spec");
    return Shared.INSTANCES.computeIfAbsent(
        spec, s -> new OnnxEmbeddingProvider(s, DEFAULT_BATCH_SIZE, false, true));
  }

  /** The model this provider runs. */
  public OnnxModel model() {
    return spec;
  }

  @Override
  public String modelId() {
    return spec.id();
  }

  @Override
  public int dimension() {
    return DIMENSION;
  }

  /** How many texts one model run takes at most. */
  public int batchSize() {
    return batchSize;
  }

  /**
   * Loads the model now rather than on the first embedding, for callers that want to time it.
   *
   * @throws StorageException if the model cannot be read or ONNX Runtime cannot load it
   */
  public void load() {
    loadedModel();
  }

  /** How many tokens the model sees of {@code text}, special tokens included. */
  int tokenCount(String text) {
    return loadedModel().tokenizer().encode(text).getIds().length;
  }

  /** Embeds a query: the model's query prefix, if any, then the text, as a document. */
  @Override
  public float[] embedQuery(String text) {
    Objects.requireNonNull(text, "text");
    return embedDocuments(List.of(spec.queryPrefix() + text)).get(0);
  }

  /** Whether the model is in memory. */
  boolean loaded() {
    return model != null;
  }

  @Override
  public List<float[]> embedDocuments(List<String> texts) {
    texts.forEach(t -> Objects.requireNonNull(t, "texts must not hold null"));
    if (texts.isEmpty()) {
      return List.of();
    }
    Model m = loadedModel();
    Encoding[] encodings = m.tokenizer().batchEncode(texts);
    Integer[] order = new Integer[texts.size()];
    for (int i = 0; i < order.length; i++) {
      order[i] = i;
    }
    Arrays.sort(order, Comparator.comparingInt(i -> encodings[i].getIds().length));
    float[][] out = new float[texts.size()][];
    for (int from = 0; from < order.length; from += batchSize) {
      int to = Math.min(order.length, from + batchSize);
      Encoding[] batch = new Encoding[to - from];
      for (int i = from; i < to; i++) {
        batch[i - from] = encodings[order[i]];
      }
      float[][] vectors = run(m, batch, spec);
      for (int i = from; i < to; i++) {
        out[order[i]] = vectors[i - from];
      }
    }
    return List.of(out);
  }

  /** Runs one batch padded to its longest text; pools and normalizes each row. */
  private static float[][] run(Model m, Encoding[] batch, OnnxModel spec) {
    int rows = batch.length;
    int len = 0;
    for (Encoding e : batch) {
      len = Math.max(len, e.getIds().length);
    }
    long[] ids = new long[rows * len];
    long[] mask = new long[rows * len];
    long[] types = new long[rows * len];
    for (int r = 0; r < rows; r++) {
      long[] rowIds = batch[r].getIds();
      long[] rowMask = batch[r].getAttentionMask();
      System.arraycopy(rowIds, 0, ids, r * len, rowIds.length);
      System.arraycopy(rowMask, 0, mask, r * len, rowMask.length);
    }
    OrtEnvironment env = OrtEnvironment.getEnvironment();
    long[] shape = {rows, len};
    Map<String, OnnxTensor> inputs = new HashMap<>();
    try {
      inputs.put("input_ids", OnnxTensor.createTensor(env, LongBuffer.wrap(ids), shape));
      inputs.put("attention_mask", OnnxTensor.createTensor(env, LongBuffer.wrap(mask), shape));
      if (m.inputs().contains("token_type_ids")) {
        inputs.put("token_type_ids", OnnxTensor.createTensor(env, LongBuffer.wrap(types), shape));
      }
      try (OrtSession.Result result = m.session().run(inputs)) {
        FloatBuffer hidden = ((OnnxTensor) result.get(0)).getFloatBuffer();
        return spec.pooling() == OnnxModel.Pooling.CLS
            ? first(hidden, rows, len)
            : pool(hidden, mask, rows, len);
      }
    } catch (OrtException e) {
      throw new IllegalStateException("ONNX Runtime failed to run " + spec.id(), e);
    } finally {
      inputs.values().forEach(OnnxTensor::close);
    }
  }

  /** The mean of each row's unmasked token vectors, L2-normalized. */
  static float[][] pool(FloatBuffer hidden, long[] mask, int rows, int len) {
    float[][] out = new float[rows][];
    for (int r = 0; r < rows; r++) {
      double[] sum = new double[DIMENSION];
      int tokens = 0;
      for (int t = 0; t < len; t++) {
        if (mask[r * len + t] == 0) {
          continue;
        }
        tokens++;
        int base = (r * len + t) * DIMENSION;
        for (int d = 0; d < DIMENSION; d++) {
          sum[d] += hidden.get(base + d);
        }
      }
      out[r] = normalize(sum, Math.max(1, tokens));
    }
    return out;
  }

  /** The first token's ({@code [CLS]}) vector of each row, L2-normalized. */
  static float[][] first(FloatBuffer hidden, int rows, int len) {
    float[][] out = new float[rows][];
    for (int r = 0; r < rows; r++) {
      double[] v = new double[DIMENSION];
      int base = r * len * DIMENSION;
      for (int d = 0; d < DIMENSION; d++) {
        v[d] = hidden.get(base + d);
      }
      out[r] = normalize(v, 1);
    }
    return out;
  }

  private static float[] normalize(double[] sum, int tokens) {
    double norm = 0;
    for (int d = 0; d < DIMENSION; d++) {
      sum[d] /= tokens;
      norm += sum[d] * sum[d];
    }
    double inv = norm > 0 ? 1 / Math.sqrt(norm) : 0;
    float[] v = new float[DIMENSION];
    for (int d = 0; d < DIMENSION; d++) {
      v[d] = (float) (sum[d] * inv);
    }
    return v;
  }

  private Model loadedModel() {
    Model m = model;
    if (m != null) {
      return m;
    }
    synchronized (loadLock) {
      if (closed) {
        throw new IllegalStateException(spec.id() + " provider is closed");
      }
      if (model == null) {
        model = loadModel(spec, spinning);
      }
      return model;
    }
  }

  private static Model loadModel(OnnxModel spec, boolean spinning) {
    HuggingFaceTokenizer tokenizer = null;
    try (InputStream tokenizerJson = resource(spec.tokenizerResource(), spec);
        InputStream onnx = resource(spec.modelResource(), spec)) {
      tokenizer =
          HuggingFaceTokenizer.newInstance(
              tokenizerJson,
              Map.of(
                  "padding", "false",
                  "truncation", "true",
                  "maxLength", Integer.toString(spec.maxTokens())));
      OrtEnvironment env = OrtEnvironment.getEnvironment();
      try (OrtSession.SessionOptions options = new OrtSession.SessionOptions()) {
        options.setOptimizationLevel(OrtSession.SessionOptions.OptLevel.ALL_OPT);
        options.setIntraOpNumThreads(INTRA_OP_THREADS);
        // ONNX Runtime's workers spin while they wait for work by default: on a host whose cores
        // are shared (other processes, or the journal writer while ingest embeds) the spinning
        // burns the CPU time the model needs; without it 2.2x more texts/s under load
        // (docs/benchmarks.md)
        options.addConfigEntry("session.intra_op.allow_spinning", spinning ? "1" : "0");
        byte[] bytes = onnx.readAllBytes();
        if (spec.int8()) {
          bytes = Int8Quantizer.quantize(bytes).model();
        }
        OrtSession session = env.createSession(bytes, options);
        return new Model(session, tokenizer, List.copyOf(session.getInputNames()));
      }
    } catch (IOException | OrtException e) {
      if (tokenizer != null) {
        tokenizer.close();
      }
      throw new StorageException("cannot load the " + spec.id() + " model: " + e.getMessage(), e);
    }
  }

  private static InputStream resource(String name, OnnxModel spec) {
    InputStream in = OnnxEmbeddingProvider.class.getResourceAsStream(name);
    if (in == null) {
      throw new StorageException(
          "no "
              + name.substring(1)
              + " on the class path; the jar "
              + spec.artifact()
              + " ships it");
    }
    return in;
  }

  /**
   * Releases the model's native memory. Embedding afterwards throws {@link IllegalStateException}.
   * Idempotent.
   *
   * @throws UnsupportedOperationException on a {@link #shared()} provider
   */
  @Override
  public void close() {
    if (shared) {
      throw new UnsupportedOperationException("the shared provider is never closed");
    }
    synchronized (loadLock) {
      closed = true;
      Model m = model;
      model = null;
      if (m != null) {
        m.tokenizer().close();
        try {
          m.session().close();
        } catch (OrtException e) {
          throw new IllegalStateException("ONNX Runtime failed to close " + spec.id(), e);
        }
      }
    }
  }

  @Override
  public String toString() {
    return spec.id() + " (ONNX, batch " + batchSize + ")";
  }
}
