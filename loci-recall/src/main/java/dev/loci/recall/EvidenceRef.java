package dev.loci.recall;

import dev.loci.InvalidRequestException;
import java.util.Objects;
import java.util.Optional;

/**
 * A stable pointer back to source material: the file, the section or clause inside it, and
 * optionally the line and character spans the evidence occupies.
 *
 * @param path the source file as it was ingested, non-empty
 * @param section the section or clause identifier, for example {@code Term and termination} or a
 *     conversation's {@code session_3}
 * @param lines the lines, 1-based and inclusive
 * @param chars the characters, 0-based, end exclusive
 */
public record EvidenceRef(
    String path, Optional<String> section, Optional<Span> lines, Optional<Span> chars) {

  /** Checks presence and that {@code path} is not blank. */
  public EvidenceRef {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(section, "section");
    Objects.requireNonNull(lines, "lines");
    Objects.requireNonNull(chars, "chars");
    if (path.isBlank()) {
      throw new InvalidRequestException("path", "expected a file path, found a blank string");
    }
  }

  /** A reference to a whole file. */
  public static EvidenceRef of(String path) {
    return new EvidenceRef(path, Optional.empty(), Optional.empty(), Optional.empty());
  }

  /** A reference to a section of a file and its lines. */
  public static EvidenceRef of(String path, String section, int firstLine, int lastLine) {
    return new EvidenceRef(
        path, Optional.of(section), Optional.of(new Span(firstLine, lastLine)), Optional.empty());
  }

  /** The same reference with a character span. */
  public EvidenceRef withChars(int start, int end) {
    return new EvidenceRef(path, section, lines, Optional.of(new Span(start, end)));
  }

  /** A human-readable form: {@code file § section, lines 3-4}. */
  public String describe() {
    StringBuilder sb = new StringBuilder(path);
    section.ifPresent(s -> sb.append(" § ").append(s));
    lines.ifPresent(
        l ->
            sb.append(
                l.start() == l.end()
                    ? ", line " + l.start()
                    : ", lines " + l.start() + "-" + l.end()));
    return sb.toString();
  }

  /**
   * A range of lines or characters.
   *
   * @param start the first, at least 0
   * @param end the last (lines) or one past the last (characters), at least {@code start}
   */
  public record Span(int start, int end) {
    /** Checks {@code 0 <= start <= end}. */
    public Span {
      if (start < 0 || end < start) {
        throw new InvalidRequestException(
            "span", "expected 0 <= start <= end, found start " + start + " and end " + end);
      }
    }
  }
}
