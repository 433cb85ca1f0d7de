package dev.loci.recall;

import dev.loci.recall.spi.EmbeddingProvider;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * A deterministic embedding with no model and no dependencies: feature hashing of word unigrams
 * (weight 1) and bigrams (weight 0.5) into {@value #DIMENSION} signed buckets, L2-normalized.
 *
 * <p>Words are maximal runs of letters and digits, lower-cased; a short list of English function
 * words is dropped before unigrams and bigrams are formed. A feature's bucket and sign come from
 * the 64-bit FNV-1a hash of its UTF-8 bytes, so vectors are the same on every JVM and release.
 * Texts without any word embed as the zero vector, which is similar to nothing.
 *
 * <p>It captures word overlap, not meaning: good for tests and as a baseline, not a substitute for
 * a sentence-embedding model. Immutable and thread-safe.
 */
public final class HashingEmbeddingProvider implements EmbeddingProvider {
  /** The number of dimensions. */
  public static final int DIMENSION = 384;

  /** The model id vectors are cached under. */
  public static final String MODEL_ID = "hashing-384-v1";

  private static final Set<String> STOP_WORDS =
      Set.of(
          "a", "an", "and", "are", "as", "at", "be", "but", "by", "can", "did", "do", "does", "for",
          "from", "had", "has", "have", "how", "i", "if", "in", "into", "is", "it", "its", "me",
          "my", "no", "not", "of", "on", "or", "so", "such", "that", "the", "their", "then",
          "there", "these", "they", "this", "to", "was", "we", "what", "when", "where", "which",
          "who", "why", "will", "with", "you", "your");

  private static final HashingEmbeddingProvider INSTANCE = new HashingEmbeddingProvider();

  private HashingEmbeddingProvider() {}

  /** The provider. */
  public static HashingEmbeddingProvider create() {
    return INSTANCE;
  }

  @Override
  public String modelId() {
    return MODEL_ID;
  }

  @Override
  public int dimension() {
    return DIMENSION;
  }

  @Override
  public List<float[]> embedDocuments(List<String> texts) {
    List<float[]> out = new ArrayList<>(texts.size());
    for (String t : texts) {
      out.add(embed(t));
    }
    return out;
  }

  /** The vector of one text. */
  public float[] embed(String text) {
    List<String> words = words(text);
    double[] v = new double[DIMENSION];
    for (int i = 0; i < words.size(); i++) {
      add(v, words.get(i), 1.0);
      if (i + 1 < words.size()) {
        add(v, words.get(i) + ' ' + words.get(i + 1), 0.5);
      }
    }
    double norm = 0;
    for (double x : v) {
      norm += x * x;
    }
    float[] out = new float[DIMENSION];
    if (norm > 0) {
      double inv = 1 / Math.sqrt(norm);
      for (int i = 0; i < DIMENSION; i++) {
        out[i] = (float) (v[i] * inv);
      }
    }
    return out;
  }

  /** The words the vector is made of, in order, function words dropped. */
  static List<String> words(String text) {
    List<String> words = new ArrayList<>();
    StringBuilder w = new StringBuilder();
    for (int i = 0; i <= text.length(); i++) {
      int c = i < text.length() ? text.codePointAt(i) : ' ';
      if (Character.isLetterOrDigit(c)) {
        w.appendCodePoint(c);
        if (Character.isSupplementaryCodePoint(c)) {
          i++;
        }
      } else if (w.length() > 0) {
        String word = w.toString().toLowerCase(Locale.ROOT);
        if (!STOP_WORDS.contains(word)) {
          words.add(word);
        }
        w.setLength(0);
      }
    }
    return words;
  }

  private static void add(double[] v, String feature, double weight) {
    long h = fnv1a(feature);
    int bucket = (int) Long.remainderUnsigned(h, DIMENSION);
    v[bucket] += (h < 0 ? -1 : 1) * weight;
  }

  /** 64-bit FNV-1a of the UTF-8 bytes of {@code s}. */
  static long fnv1a(String s) {
    long h = 0xcbf29ce484222325L;
    for (byte b : s.getBytes(StandardCharsets.UTF_8)) {
      h ^= b & 0xff;
      h *= 0x100000001b3L;
    }
    return h;
  }
}
