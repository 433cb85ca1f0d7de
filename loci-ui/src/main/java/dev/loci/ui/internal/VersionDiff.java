package dev.loci.ui.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.difflib.DiffUtils;
import com.github.difflib.patch.AbstractDelta;
import com.github.difflib.patch.Patch;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A line diff between two versions of a record's JSON content, pretty-printed first so that a
 * changed field is one changed line (Myers' algorithm, from java-diff-utils).
 */
public final class VersionDiff {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** How a line of the diff relates the two versions. */
  public enum Kind {
    /** In both. */
    SAME,
    /** Only in the older version. */
    REMOVED,
    /** Only in the newer version. */
    ADDED
  }

  /**
   * One line of the diff.
   *
   * @param kind whether it was kept, removed or added
   * @param oldLine its line number in the older version, 0 if added
   * @param newLine its line number in the newer version, 0 if removed
   * @param text the line
   */
  public record Line(Kind kind, int oldLine, int newLine, String text) {
    /** The marker shown before the line: space, minus or plus. */
    public String marker() {
      return switch (kind) {
        case SAME -> " ";
        case REMOVED -> "−";
        case ADDED -> "+";
      };
    }

    /** The CSS class of the line. */
    public String css() {
      return kind.name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  private VersionDiff() {}

  /** Pretty-prints compact JSON content, or returns it as it is if it does not parse. */
  public static String pretty(String json) {
    try {
      return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(JSON.readTree(json));
    } catch (JsonProcessingException e) {
      return json;
    }
  }

  /** The diff from {@code older} to {@code newer}, every line of both in order. */
  public static List<Line> of(String older, String newer) {
    List<String> a = Arrays.asList(pretty(older).split("\n", -1));
    List<String> b = Arrays.asList(pretty(newer).split("\n", -1));
    Patch<String> patch = DiffUtils.diff(a, b);
    List<Line> out = new ArrayList<>(a.size() + b.size());
    int i = 0;
    int j = 0;
    for (AbstractDelta<String> d : patch.getDeltas()) {
      while (i < d.getSource().getPosition()) {
        out.add(new Line(Kind.SAME, i + 1, j + 1, a.get(i)));
        i++;
        j++;
      }
      for (String s : d.getSource().getLines()) {
        out.add(new Line(Kind.REMOVED, ++i, 0, s));
      }
      for (String s : d.getTarget().getLines()) {
        out.add(new Line(Kind.ADDED, 0, ++j, s));
      }
    }
    while (i < a.size()) {
      out.add(new Line(Kind.SAME, i + 1, j + 1, a.get(i)));
      i++;
      j++;
    }
    return out;
  }
}
