package dev.loci;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;

/**
 * The one check of the {@code subject_ids} a record names, shared by every layer whose records can
 * name data subjects, so a subject id means the same everywhere it is accepted.
 */
public final class SubjectIds {
  /** The most subjects one record may name. */
  public static final int MAX = 32;

  /** The most characters of one subject id. */
  public static final int MAX_LENGTH = 128;

  private SubjectIds() {}

  /**
   * {@code ids}, checked: at most {@value #MAX}, each 1-{@value #MAX_LENGTH} characters without
   * control characters, none given twice.
   *
   * @param field the field name errors name, for example {@code subject_ids}
   * @return an unmodifiable copy in the given order
   * @throws InvalidRequestException naming {@code field} or {@code field[i]} and what was expected
   */
  public static List<String> check(String field, List<String> ids) {
    Objects.requireNonNull(ids, field);
    if (ids.size() > MAX) {
      throw new InvalidRequestException(
          field, "expected at most " + MAX + " subjects, found " + ids.size());
    }
    if (ids.isEmpty()) {
      return List.of(); // most records name no subject: no set to build
    }
    LinkedHashSet<String> seen = new LinkedHashSet<>();
    for (int i = 0; i < ids.size(); i++) {
      String s = ids.get(i);
      if (s == null) {
        throw new InvalidRequestException(field + "[" + i + "]", "expected a string, found null");
      }
      if (s.isBlank() || s.length() > MAX_LENGTH || s.chars().anyMatch(Character::isISOControl)) {
        throw new InvalidRequestException(
            field + "[" + i + "]",
            "expected a subject id of 1-" + MAX_LENGTH + " characters without control characters");
      }
      if (!seen.add(s)) {
        throw new InvalidRequestException(field + "[" + i + "]", "'" + s + "' is given twice");
      }
    }
    return List.copyOf(seen);
  }
}
