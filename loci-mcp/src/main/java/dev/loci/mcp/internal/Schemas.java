package dev.loci.mcp.internal;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Builds the JSON Schemas of tool arguments and results, as plain maps the SDK serializes. */
public final class Schemas {
  private Schemas() {}

  /** A property: its name and schema. */
  public record Property(String name, Map<String, Object> schema, boolean required) {}

  /** An object schema of {@code properties}; {@code closed} refuses arguments not named. */
  public static Map<String, Object> object(boolean closed, Property... properties) {
    Map<String, Object> props = new LinkedHashMap<>();
    List<String> required = new ArrayList<>();
    for (Property p : properties) {
      props.put(p.name(), p.schema());
      if (p.required()) {
        required.add(p.name());
      }
    }
    Map<String, Object> s = new LinkedHashMap<>();
    s.put("type", "object");
    s.put("properties", props);
    if (!required.isEmpty()) {
      s.put("required", required);
    }
    if (closed) {
      s.put("additionalProperties", false);
    }
    return s;
  }

  /** A required property. */
  public static Property required(String name, Map<String, Object> schema) {
    return new Property(name, schema, true);
  }

  /** An optional property. */
  public static Property optional(String name, Map<String, Object> schema) {
    return new Property(name, schema, false);
  }

  /** A string, described. */
  public static Map<String, Object> string(String description) {
    return described(Map.of("type", "string"), description);
  }

  /** One of {@code values}, described. */
  public static Map<String, Object> oneOf(String description, List<String> values) {
    return described(Map.of("type", "string", "enum", values), description);
  }

  /** An integer from {@code min} to {@code max}, described. */
  public static Map<String, Object> integer(String description, int min, int max) {
    return described(Map.of("type", "integer", "minimum", min, "maximum", max), description);
  }

  /** A number from {@code min} to {@code max}, described. */
  public static Map<String, Object> number(String description, double min, double max) {
    return described(Map.of("type", "number", "minimum", min, "maximum", max), description);
  }

  /** A boolean, described. */
  public static Map<String, Object> bool(String description) {
    return described(Map.of("type", "boolean"), description);
  }

  /** An array of {@code items}, described. */
  public static Map<String, Object> array(String description, Map<String, Object> items) {
    return described(Map.of("type", "array", "items", items), description);
  }

  /** An array of strings, described. */
  public static Map<String, Object> strings(String description) {
    return array(description, Map.of("type", "string"));
  }

  /** The {@code namespace} argument of every namespaced tool. */
  public static Property namespace() {
    return optional(
        Call.NAMESPACE,
        string(
            "The namespace to act in, a dotted path such as acme.support.agent-7. Default: the"
                + " server's namespace (loci mcp --ns, or ?ns= on the /mcp URL)."));
  }

  private static Map<String, Object> described(Map<String, Object> schema, String description) {
    Map<String, Object> s = new LinkedHashMap<>(schema);
    if (!description.isEmpty()) {
      s.put("description", description);
    }
    return s;
  }
}
