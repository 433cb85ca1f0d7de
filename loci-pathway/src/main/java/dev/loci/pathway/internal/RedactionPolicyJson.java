package dev.loci.pathway.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.loci.InvalidRequestException;
import dev.loci.pathway.RedactionPolicy;
import java.util.ArrayList;
import java.util.List;

/**
 * The JSON form of a {@link RedactionPolicy}: as the journal keeps it and as users see and set it.
 */
public final class RedactionPolicyJson {
  private RedactionPolicyJson() {}

  /** The JSON form of a policy, as journaled and as shown to users. */
  public static ObjectNode toJson(RedactionPolicy policy) {
    ObjectNode node = PathwayJson.MAPPER.createObjectNode();
    node.put("enabled", policy.enabled());
    ArrayNode rules = node.putArray("rules");
    for (RedactionPolicy.Rule r : policy.rules()) {
      rules.addObject().put("name", r.name()).put("regex", r.regex());
    }
    if (policy.traceContent()) {
      node.put("trace_content", true);
    }
    if (policy.nodeContent()) {
      node.put("node_content", true);
    }
    return node;
  }

  /**
   * Reads a policy from JSON text, as {@link #fromJson(JsonNode)} does.
   *
   * @throws InvalidRequestException naming {@code policy} if the text is not JSON, or the field
   */
  public static RedactionPolicy fromJson(String json) {
    try {
      return fromJson(PathwayJson.MAPPER.readTree(json));
    } catch (JsonProcessingException e) {
      throw new InvalidRequestException(
          "policy", "expected a JSON object, found an error: " + e.getOriginalMessage());
    }
  }

  /**
   * Reads a policy: {@code {"enabled": false}} turns redaction off; otherwise {@code rules} lists
   * {@code name} and {@code regex}, where a rule with a built-in name and no {@code regex} means
   * the built-in rule.
   *
   * @throws InvalidRequestException naming the field ({@code rules[1].regex})
   */
  public static RedactionPolicy fromJson(JsonNode node) {
    if (node == null || !node.isObject()) {
      throw new InvalidRequestException("policy", "expected a JSON object");
    }
    JsonNode enabled = node.get("enabled");
    if (enabled != null && !enabled.isBoolean()) {
      throw new InvalidRequestException("enabled", "expected true or false, found " + enabled);
    }
    if (enabled != null && !enabled.booleanValue()) {
      return RedactionPolicy.off();
    }
    JsonNode rules = node.get("rules");
    if (rules == null || !rules.isArray()) {
      throw new InvalidRequestException("rules", "expected an array of {name, regex} objects");
    }
    List<RedactionPolicy.Rule> out = new ArrayList<>();
    for (int i = 0; i < rules.size(); i++) {
      JsonNode r = rules.get(i);
      if (!r.isObject()) {
        throw new InvalidRequestException(
            "rules[" + i + "]", "expected a {name, regex} object, found " + r.getNodeType());
      }
      String name = r.path("name").asText(null);
      JsonNode regex = r.get("regex");
      try {
        if (regex == null || regex.isNull()) {
          out.add(builtin(name));
        } else {
          out.add(new RedactionPolicy.Rule(name, regex.asText()));
        }
      } catch (InvalidRequestException e) {
        throw new InvalidRequestException("rules[" + i + "]." + e.field(), detail(e));
      }
    }
    return RedactionPolicy.of(out)
        .withContent(flag(node, "trace_content"), flag(node, "node_content"));
  }

  private static boolean flag(JsonNode node, String name) {
    JsonNode v = node.get(name);
    if (v != null && !v.isBoolean()) {
      throw new InvalidRequestException(name, "expected true or false, found " + v);
    }
    return v != null && v.booleanValue();
  }

  private static RedactionPolicy.Rule builtin(String name) {
    for (RedactionPolicy.Rule r : RedactionPolicy.defaults().rules()) {
      if (r.name().equals(name)) {
        return r;
      }
    }
    throw new InvalidRequestException(
        "regex", "expected a regex, or a built-in rule name (email, phone, candidate_id)");
  }

  private static String detail(InvalidRequestException e) {
    String m = e.getMessage();
    String prefix = e.field() + ": ";
    return m.startsWith(prefix) ? m.substring(prefix.length()) : m;
  }
}
