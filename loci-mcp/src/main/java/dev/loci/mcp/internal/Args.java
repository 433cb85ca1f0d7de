package dev.loci.mcp.internal;

import dev.loci.InvalidRequestException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The arguments of one tool call, as the JSON-RPC layer decoded them (maps, lists, strings,
 * numbers, booleans), read by name and type. Every refusal is an {@link InvalidRequestException}
 * naming the argument (with its path inside arrays, such as {@code entities[2].name}) and what was
 * expected. Immutable.
 */
public final class Args {
  private final String prefix;
  private final Map<String, Object> values;

  private Args(String prefix, Map<String, Object> values) {
    this.prefix = prefix;
    this.values = values;
  }

  /** The arguments of a call; absent arguments are an empty map. */
  public static Args of(Map<String, Object> arguments) {
    return new Args("", arguments == null ? Map.of() : Collections.unmodifiableMap(arguments));
  }

  /** The full name of argument {@code name}, for error messages. */
  public String field(String name) {
    return prefix + name;
  }

  /**
   * Checks that every argument is one of {@code allowed}.
   *
   * @throws InvalidRequestException naming the first unknown argument
   */
  public Args allowOnly(Set<String> allowed) {
    for (String name : values.keySet()) {
      if (!allowed.contains(name)) {
        throw new InvalidRequestException(
            field(name),
            "unknown argument; expected only " + String.join(", ", new TreeSet<>(allowed)));
      }
    }
    return this;
  }

  /** Whether argument {@code name} is given (and not null). */
  public boolean has(String name) {
    return values.get(name) != null;
  }

  /** A string argument, if given. */
  public Optional<String> string(String name) {
    Object v = values.get(name);
    if (v == null) {
      return Optional.empty();
    }
    if (v instanceof String s) {
      return Optional.of(s);
    }
    throw wrong(name, "a string", v);
  }

  /** A string argument that must be given and not blank. */
  public String requireString(String name) {
    String s = string(name).orElseThrow(() -> missing(name, "a string"));
    if (s.isBlank()) {
      throw new InvalidRequestException(field(name), "expected a non-blank string, found \"\"");
    }
    return s;
  }

  /** An integer argument, if given. */
  public Optional<Integer> integer(String name) {
    Object v = values.get(name);
    if (v == null) {
      return Optional.empty();
    }
    if (v instanceof Integer i) {
      return Optional.of(i);
    }
    if (v instanceof Number n
        && n.doubleValue() == Math.rint(n.doubleValue())
        && Math.abs(n.doubleValue()) <= Integer.MAX_VALUE) {
      return Optional.of(n.intValue());
    }
    throw wrong(name, "an integer", v);
  }

  /** A number argument, if given. */
  public Optional<Double> number(String name) {
    Object v = values.get(name);
    if (v == null) {
      return Optional.empty();
    }
    if (v instanceof Number n) {
      return Optional.of(n.doubleValue());
    }
    throw wrong(name, "a number", v);
  }

  /** A boolean argument, if given. */
  public Optional<Boolean> bool(String name) {
    Object v = values.get(name);
    if (v == null) {
      return Optional.empty();
    }
    if (v instanceof Boolean b) {
      return Optional.of(b);
    }
    throw wrong(name, "true or false", v);
  }

  /** An array of strings, if given. */
  public Optional<List<String>> strings(String name) {
    Object v = values.get(name);
    if (v == null) {
      return Optional.empty();
    }
    if (!(v instanceof List<?> list)) {
      throw wrong(name, "an array of strings", v);
    }
    List<String> out = new ArrayList<>(list.size());
    for (int i = 0; i < list.size(); i++) {
      if (!(list.get(i) instanceof String s)) {
        throw wrong(name + "[" + i + "]", "a string", list.get(i));
      }
      out.add(s);
    }
    return Optional.of(out);
  }

  /** An array of strings that must be given. */
  public List<String> requireStrings(String name) {
    return strings(name).orElseThrow(() -> missing(name, "an array of strings"));
  }

  /** An array of objects that must be given, each read as {@link Args} with its path. */
  public List<Args> requireObjects(String name) {
    Object v = values.get(name);
    if (v == null) {
      throw missing(name, "an array of objects");
    }
    if (!(v instanceof List<?> list)) {
      throw wrong(name, "an array of objects", v);
    }
    List<Args> out = new ArrayList<>(list.size());
    for (int i = 0; i < list.size(); i++) {
      String at = name + "[" + i + "]";
      if (!(list.get(i) instanceof Map<?, ?> m)) {
        throw wrong(at, "an object", list.get(i));
      }
      @SuppressWarnings("unchecked")
      Map<String, Object> member = (Map<String, Object>) m;
      out.add(new Args(field(at) + ".", Collections.unmodifiableMap(member)));
    }
    return out;
  }

  /** The raw value of argument {@code name}, if given, for handing on as JSON. */
  public Optional<Object> raw(String name) {
    return Optional.ofNullable(values.get(name));
  }

  private InvalidRequestException missing(String name, String expected) {
    return new InvalidRequestException(
        field(name), "required: expected " + expected + ", found nothing");
  }

  private InvalidRequestException wrong(String name, String expected, Object found) {
    return new InvalidRequestException(
        field(name), "expected " + expected + ", found " + describe(found));
  }

  private static String describe(Object v) {
    if (v instanceof String s) {
      return "the string \"" + (s.length() > 60 ? s.substring(0, 60) + "..." : s) + "\"";
    }
    if (v instanceof List<?>) {
      return "an array";
    }
    if (v instanceof Map<?, ?>) {
      return "an object";
    }
    return String.valueOf(v);
  }
}
