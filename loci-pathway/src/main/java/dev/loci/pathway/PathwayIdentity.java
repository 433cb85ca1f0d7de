package dev.loci.pathway;

import dev.loci.InvalidRequestException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;

/**
 * The identity algorithms of spec sections 3 and 4: {@code pathway_id}, {@code file_prefix} and
 * {@code pathway_vec}. Stateless and thread-safe.
 *
 * <p>Design. {@code pathway_id} is the lowercase SHA-256 hex of the UTF-8 bytes of {@code
 * task_class|file_prefix|signal_class_or_empty}. {@code file_prefix} first turns every backslash
 * into a forward slash (the spec's Windows normalization, applied on every platform so that ids do
 * not depend on where they were computed), then keeps the first two {@code '/'}-separated segments.
 * Segments are taken literally, the way a Rust {@code split('/').take(2)} takes them: empty
 * segments count, so {@code /abs/file} gives {@code /abs} and {@code a//b} gives {@code a/}. A path
 * with fewer than two segments is returned as it is. {@code pathway_vec} hashes each metadata token
 * with SHA-256, reads the first four bytes as a big-endian unsigned integer, adds 1 to bucket
 * {@code n mod 32}, and divides by the L2 norm. Repeated tokens count each time; see {@link
 * #metadataTokens(PathwayTrace)} for the exact list. Golden vectors computed independently from the
 * spec's Python pseudocode pin all three.
 */
public final class PathwayIdentity {
  private static final HexFormat HEX = HexFormat.of();

  private PathwayIdentity() {}

  /**
   * The {@code pathway_id} of spec section 3.1.
   *
   * @param taskClass the task class; must not be blank
   * @param filePath the file path; reduced with {@link #filePrefix(String)}
   * @param signalClass the signal class; empty is hashed as the empty string, exactly like a
   *     present empty string
   * @return 64 lowercase hex characters
   * @throws InvalidRequestException naming {@code task_class} if it is blank
   */
  public static String pathwayId(String taskClass, String filePath, Optional<String> signalClass) {
    requireTaskClass(taskClass);
    String key = taskClass + "|" + filePrefix(filePath) + "|" + signalClass.orElse("");
    return HEX.formatHex(sha256(key));
  }

  /**
   * The {@code file_prefix} of spec section 3.2: backslashes normalized to {@code '/'}, then the
   * first two segments joined by {@code '/'}, or the whole (normalized) path if it has fewer than
   * two segments. For example {@code crates/queryd/src/service.rs} gives {@code crates/queryd},
   * {@code crates\queryd\src\service.rs} gives {@code crates/queryd}, {@code README.md} gives
   * {@code README.md}.
   */
  public static String filePrefix(String filePath) {
    String path = filePath.replace('\\', '/');
    int first = path.indexOf('/');
    if (first < 0) {
      return path;
    }
    int second = path.indexOf('/', first + 1);
    return second < 0 ? path : path.substring(0, second);
  }

  /**
   * The metadata tokens of spec section 4 for {@code trace}, in this order: {@code
   * task_class:<task_class>}, {@code file_prefix:<file_prefix>}, {@code signal_class:<signal_class
   * or empty>}, then {@code model:<model>} per ladder attempt, {@code kb_doc:<source_doc>} per KB
   * chunk, {@code signal:<class>} per observer signal and {@code flag:<wire name>} per bug
   * fingerprint, each in list order and repeated as often as it occurs. Nothing else: no summary,
   * verdict, timestamp or subject identifier.
   */
  public static List<String> metadataTokens(PathwayTrace trace) {
    return tokens(
        trace.taskClass(),
        trace.filePath(),
        trace.signalClass(),
        trace.ladderAttempts(),
        trace.kbChunks(),
        trace.observerSignals(),
        trace.bugFingerprints());
  }

  /** The {@code pathway_vec} of spec section 4 for {@code trace}, computed from its fields. */
  public static PathwayVec pathwayVec(PathwayTrace trace) {
    return vectorOf(metadataTokens(trace));
  }

  static List<String> tokens(
      String taskClass,
      String filePath,
      Optional<String> signalClass,
      List<LadderAttempt> ladderAttempts,
      List<KbChunkRef> kbChunks,
      List<ObserverSignal> observerSignals,
      List<BugFingerprint> bugFingerprints) {
    List<String> tokens =
        new ArrayList<>(
            3
                + ladderAttempts.size()
                + kbChunks.size()
                + observerSignals.size()
                + bugFingerprints.size());
    tokens.add("task_class:" + taskClass);
    tokens.add("file_prefix:" + filePrefix(filePath));
    tokens.add("signal_class:" + signalClass.orElse(""));
    ladderAttempts.forEach(a -> tokens.add("model:" + a.model()));
    kbChunks.forEach(c -> tokens.add("kb_doc:" + c.sourceDoc()));
    observerSignals.forEach(s -> tokens.add("signal:" + s.label()));
    bugFingerprints.forEach(f -> tokens.add("flag:" + f.flag().wireName()));
    return List.copyOf(tokens);
  }

  /** The bucket a token falls into: first four hash bytes, big-endian unsigned, mod 32. */
  static int bucketOf(String token) {
    byte[] h = sha256(token);
    long n =
        ((long) (h[0] & 0xFF) << 24) | ((h[1] & 0xFF) << 16) | ((h[2] & 0xFF) << 8) | (h[3] & 0xFF);
    return (int) (n % PathwayVec.DIMENSION);
  }

  static PathwayVec vectorOf(List<String> tokens) {
    double[] buckets = new double[PathwayVec.DIMENSION];
    for (String token : tokens) {
      buckets[bucketOf(token)] += 1.0;
    }
    double sum = 0;
    for (double b : buckets) {
      sum += b * b;
    }
    double norm = Math.sqrt(sum);
    float[] out = new float[PathwayVec.DIMENSION];
    for (int i = 0; i < out.length; i++) {
      out[i] = norm > 0 ? (float) (buckets[i] / norm) : 0f;
    }
    return new PathwayVec(out);
  }

  static void requireTaskClass(String taskClass) {
    if (taskClass == null || taskClass.isBlank()) {
      throw new InvalidRequestException(
          "task_class",
          "expected a non-empty task class, found "
              + (taskClass == null ? "none" : "\"" + taskClass + "\""));
    }
  }

  private static byte[] sha256(String s) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
  }
}
