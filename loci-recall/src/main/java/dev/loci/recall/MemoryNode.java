package dev.loci.recall;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonSetter;
import com.fasterxml.jackson.annotation.Nulls;
import dev.loci.InvalidRequestException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * A typed unit of memory content: a contract clause, a runbook step, a conversation turn.
 *
 * <p>The weights are in {@code [0, 1]}: {@code importance} (how much the node matters even when it
 * is not lexically dominant), {@code risk} and {@code novelty} (which together make its anomaly
 * score), {@code confidence}, and {@code decay_factor} (1 means it does not fade). Attributes are
 * plain strings, sorted by key; domain packs record there what made them choose the weights (for
 * example {@code risk_cues}).
 *
 * @param id unique within the namespace, 1-256 characters without control characters
 * @param type the node type, lower snake_case, for example {@code clause} or {@code turn}
 * @param content the text recalled, indexed and embedded
 * @param attributes extra facts, copied and sorted; the words of {@link #INDEX_TERMS} are indexed
 *     for lexical search too
 * @param importance how much the node matters, in [0, 1]
 * @param risk how risky, in [0, 1]
 * @param novelty how unusual or exception-bearing, in [0, 1]
 * @param confidence how sure its source is, in [0, 1]
 * @param usageCount how often it was used, at least 0
 * @param decayFactor how much of its weight it keeps, in [0, 1]
 * @param sourceRef where it came from
 * @param subjectIds the data subjects (people) the node's content is about, each 1-128 characters
 *     without control characters, without duplicates; empty when it names none. The subject index
 *     lists the node in their manifests and erasure of a subject erases the node's content.
 */
public record MemoryNode(
    String id,
    String type,
    String content,
    Map<String, String> attributes,
    double importance,
    double risk,
    double novelty,
    double confidence,
    long usageCount,
    double decayFactor,
    Optional<EvidenceRef> sourceRef,
    @JsonSetter(nulls = Nulls.AS_EMPTY) @JsonInclude(JsonInclude.Include.NON_EMPTY)
        List<String> subjectIds) {

  /**
   * The attribute whose words are indexed for lexical search beside the content but not embedded:
   * words a question may name that would only blur the meaning of the text in a vector (a domain
   * pack's session date, for example).
   */
  public static final String INDEX_TERMS = "index_terms";

  /**
   * The attribute holding the text around the item that helps find it but is not its content (the
   * {@code conversation} pack's neighbouring turns): indexed for lexical search in a field of its
   * own, which counts {@link RecallQuery#contextWeight()} as much as the content, and embedded
   * after the content; recall returns the content alone.
   */
  public static final String INDEX_CONTEXT = "index_context";

  /** The rule node types and edge types follow. */
  static final Pattern TYPE = Pattern.compile("[a-z][a-z0-9_]{0,62}");

  /** Validates every field; the exception names the offending one. */
  public MemoryNode {
    checkId("id", id);
    checkType("type", type);
    Objects.requireNonNull(content, "content");
    if (content.isBlank()) {
      throw new InvalidRequestException("content", "expected text, found a blank string");
    }
    Objects.requireNonNull(attributes, "attributes");
    // most nodes have no attributes: one shared empty map instead of a map each
    attributes =
        attributes.isEmpty()
            ? java.util.Collections.emptySortedMap()
            : java.util.Collections.unmodifiableSortedMap(sorted(attributes));
    unit("importance", importance);
    unit("risk", risk);
    unit("novelty", novelty);
    unit("confidence", confidence);
    unit("decay_factor", decayFactor);
    if (usageCount < 0) {
      throw new InvalidRequestException("usage_count", "expected 0 or more, found " + usageCount);
    }
    Objects.requireNonNull(sourceRef, "source_ref");
    subjectIds = dev.loci.SubjectIds.check("subject_ids", subjectIds);
  }

  /** A node without subjects, as before nodes could name them. */
  public MemoryNode(
      String id,
      String type,
      String content,
      Map<String, String> attributes,
      double importance,
      double risk,
      double novelty,
      double confidence,
      long usageCount,
      double decayFactor,
      Optional<EvidenceRef> sourceRef) {
    this(
        id,
        type,
        content,
        attributes,
        importance,
        risk,
        novelty,
        confidence,
        usageCount,
        decayFactor,
        sourceRef,
        List.of());
  }

  /** The same node with {@code content} and {@code attributes} instead of its own. */
  public MemoryNode withContent(String content, Map<String, String> attributes) {
    return new MemoryNode(
        id,
        type,
        content,
        attributes,
        importance,
        risk,
        novelty,
        confidence,
        usageCount,
        decayFactor,
        sourceRef,
        subjectIds);
  }

  /** The same node naming {@code subjects} (replacing those it named). */
  public MemoryNode withSubjectIds(List<String> subjects) {
    return toBuilder().subjectIds(subjects).build();
  }

  /** Starts a node with importance 0.5, no risk or novelty, confidence 1 and no decay. */
  public static Builder builder(String id, String type, String content) {
    return new Builder(id, type, content);
  }

  /** A builder holding this node's values. */
  public Builder toBuilder() {
    Builder b = new Builder(id, type, content);
    b.attributes.putAll(attributes);
    b.importance = importance;
    b.risk = risk;
    b.novelty = novelty;
    b.confidence = confidence;
    b.usageCount = usageCount;
    b.decayFactor = decayFactor;
    b.sourceRef = sourceRef;
    b.subjectIds = subjectIds;
    return b;
  }

  /** The anomaly score of the scoring formula: the larger of risk and novelty. */
  public double anomaly() {
    return Math.max(risk, novelty);
  }

  private static TreeMap<String, String> sorted(Map<String, String> attributes) {
    TreeMap<String, String> sorted = new TreeMap<>();
    attributes.forEach(
        (k, v) -> {
          if (k == null || k.isEmpty() || v == null) {
            throw new InvalidRequestException(
                "attributes", "expected non-empty keys and non-null values, found " + k + "=" + v);
          }
          sorted.put(k, v);
        });
    return sorted;
  }

  static void checkId(String field, String id) {
    Objects.requireNonNull(id, field);
    if (id.isEmpty() || id.length() > 256 || hasControl(id)) {
      throw new InvalidRequestException(
          field,
          "expected 1-256 characters without control characters, found '"
              + (id.length() > 80 ? id.substring(0, 80) + "..." : id)
              + "'");
    }
  }

  /**
   * The stricter rule for an id a write introduces (ids already in the journal are read with {@link
   * #checkId}, so older data still loads): also not blank, without leading or trailing whitespace,
   * and no {@code .} or {@code ..} segment between slashes, which URL normalization would turn into
   * another path so the node could not be addressed. A {@code /} inside an id is allowed (it is
   * sent as {@code %2F}).
   *
   * @throws InvalidRequestException naming {@code field}
   */
  static void checkNewId(String field, String id) {
    checkId(field, id);
    String why = null;
    if (id.isBlank()) {
      why = "a blank id";
    } else if (!id.strip().equals(id)) {
      why = "leading or trailing whitespace";
    } else {
      for (String segment : id.split("/", -1)) {
        if (segment.equals(".") || segment.equals("..")) {
          why = "a '" + segment + "' segment";
        }
      }
    }
    if (why != null) {
      throw new InvalidRequestException(
          field,
          "expected 1-256 characters, not blank, without leading or trailing whitespace and"
              + " without a '.' or '..' segment between slashes; found "
              + why
              + ": '"
              + (id.length() > 80 ? id.substring(0, 80) + "..." : id)
              + "'");
    }
  }

  static void checkType(String field, String type) {
    Objects.requireNonNull(type, field);
    if (!isType(type)) {
      throw new InvalidRequestException(
          field, "expected lower snake_case such as 'clause' or 'next_unit', found '" + type + "'");
    }
  }

  /** Whether {@code s} holds a control character (a plain loop: ingest checks every record). */
  private static boolean hasControl(String s) {
    for (int i = 0; i < s.length(); i++) {
      if (Character.isISOControl(s.charAt(i))) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether {@code t} matches {@link #TYPE}, checked without a regex (ingest checks every edge).
   */
  static boolean isType(String t) {
    int n = t.length();
    if (n < 1 || n > 63 || t.charAt(0) < 'a' || t.charAt(0) > 'z') {
      return false;
    }
    for (int i = 1; i < n; i++) {
      char c = t.charAt(i);
      if (!(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_')) {
        return false;
      }
    }
    return true;
  }

  static void unit(String field, double value) {
    if (!(value >= 0 && value <= 1)) {
      throw new InvalidRequestException(field, "expected a number in [0, 1], found " + value);
    }
  }

  /** Builds a {@link MemoryNode}; not thread-safe. */
  public static final class Builder {
    private final String id;
    private final String type;
    private final String content;
    private final Map<String, String> attributes = new TreeMap<>();
    private double importance = 0.5;
    private double risk;
    private double novelty;
    private double confidence = 1;
    private long usageCount;
    private double decayFactor = 1;
    private Optional<EvidenceRef> sourceRef = Optional.empty();
    private List<String> subjectIds = List.of();

    private Builder(String id, String type, String content) {
      this.id = id;
      this.type = type;
      this.content = content;
    }

    /** Sets one attribute. */
    public Builder attribute(String key, String value) {
      attributes.put(key, value);
      return this;
    }

    /** Sets the importance, in [0, 1]. */
    public Builder importance(double v) {
      this.importance = v;
      return this;
    }

    /** Sets the risk, in [0, 1]. */
    public Builder risk(double v) {
      this.risk = v;
      return this;
    }

    /** Sets the novelty, in [0, 1]. */
    public Builder novelty(double v) {
      this.novelty = v;
      return this;
    }

    /** Sets the confidence, in [0, 1]. */
    public Builder confidence(double v) {
      this.confidence = v;
      return this;
    }

    /** Sets the usage count, at least 0. */
    public Builder usageCount(long v) {
      this.usageCount = v;
      return this;
    }

    /** Sets the decay factor, in [0, 1]. */
    public Builder decayFactor(double v) {
      this.decayFactor = v;
      return this;
    }

    /** Sets where the node came from. */
    public Builder sourceRef(EvidenceRef ref) {
      this.sourceRef = Optional.of(ref);
      return this;
    }

    /** Sets the data subjects the node is about. */
    public Builder subjectIds(List<String> ids) {
      this.subjectIds = new ArrayList<>(ids);
      return this;
    }

    /**
     * Builds the node.
     *
     * @throws InvalidRequestException naming the offending field
     */
    public MemoryNode build() {
      return new MemoryNode(
          id,
          type,
          content,
          attributes,
          importance,
          risk,
          novelty,
          confidence,
          usageCount,
          decayFactor,
          sourceRef,
          subjectIds);
    }
  }
}
