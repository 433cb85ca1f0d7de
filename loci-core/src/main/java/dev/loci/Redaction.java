package dev.loci;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.loci.internal.Json;
import dev.loci.spi.CommandExecutor;
import dev.loci.spi.ContentRedaction;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * Redaction of personal data from trace content and memory nodes, where a namespace asks for it
 * (off by default): each layer that is a {@link ContentRedaction} says whether and how. Callers
 * redact before they decide a write, never under the engine's lock. Thread-safe.
 */
public final class Redaction {
  // numbers come back as they were written (1.10 stays 1.10) when a string in the content changes
  private static final ObjectReader EXACT =
      Json.MAPPER
          .reader()
          .with(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
          .without(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES);

  private final CommandExecutor engine;
  private final List<ContentRedaction> sources;

  Redaction(CommandExecutor engine, List<ContentRedaction> sources) {
    this.engine = engine;
    this.sources = List.copyOf(sources);
  }

  /** The redactor of {@code kind} in {@code ns}, if the namespace redacts that kind. */
  public Optional<UnaryOperator<String>> redactor(Namespace ns, String kind) {
    Objects.requireNonNull(ns, "ns");
    Objects.requireNonNull(kind, "kind");
    if (sources.isEmpty()) {
      return Optional.empty();
    }
    return engine.read(
        () -> {
          for (ContentRedaction s : sources) {
            Optional<UnaryOperator<String>> r = s.redactor(ns, kind);
            if (r.isPresent()) {
              return r;
            }
          }
          return Optional.<UnaryOperator<String>>empty();
        });
  }

  /**
   * {@code json} (one JSON value, a trace's content) with every string value redacted as {@code ns}
   * redacts traces, keys and the top-level {@code subject_ids} left as they are; {@code json}
   * itself when the namespace does not redact traces or nothing matched.
   */
  public String traceContent(Namespace ns, String json) {
    Objects.requireNonNull(json, "content");
    Optional<UnaryOperator<String>> r = redactor(ns, ContentRedaction.TRACE);
    if (r.isEmpty()) {
      return json;
    }
    JsonNode tree;
    try {
      tree = EXACT.readTree(json);
    } catch (JsonProcessingException e) {
      return json; // not JSON: the write refuses it, naming content
    }
    if (tree == null) {
      return json;
    }
    boolean[] changed = {false};
    JsonNode out = redacted(tree, r.get(), changed, true);
    return changed[0] ? out.toString() : json;
  }

  private static JsonNode redacted(
      JsonNode n, UnaryOperator<String> r, boolean[] changed, boolean top) {
    if (n.isTextual()) {
      String t = r.apply(n.asText());
      if (!t.equals(n.asText())) {
        changed[0] = true;
        return TextNode.valueOf(t);
      }
      return n;
    }
    if (n.isArray()) {
      ArrayNode a = (ArrayNode) n;
      for (int i = 0; i < a.size(); i++) {
        a.set(i, redacted(a.get(i), r, changed, false));
      }
      return a;
    }
    if (n.isObject()) {
      ObjectNode o = (ObjectNode) n;
      for (Iterator<Map.Entry<String, JsonNode>> it = o.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> f = it.next();
        if (!(top && f.getKey().equals("subject_ids"))) {
          f.setValue(redacted(f.getValue(), r, changed, false));
        }
      }
      return o;
    }
    return n;
  }
}
