package dev.loci.subjects;

import dev.loci.InvalidRequestException;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.regex.Pattern;

/**
 * What applies to one subject's records, or (without {@code legalHold} and {@code legalBasis}) to
 * one namespace's: how long they are kept, whether a legal hold keeps them regardless, the vertical
 * they belong to (whose policy may keep their content on this machine), and the legal basis for
 * holding them.
 *
 * @param retainDays days after its last write that a record is kept, if limited (1 to 36,500)
 * @param legalHold whether a legal hold keeps every record of the subject past any retention
 * @param vertical the vertical, for example {@code healthcare} (lower-case letters, digits, dashes)
 * @param legalBasis the legal basis recorded for holding the data, free text up to 256 characters
 */
public record SubjectPolicy(
    OptionalInt retainDays,
    boolean legalHold,
    Optional<String> vertical,
    Optional<String> legalBasis) {
  /** No retention limit, no hold, no vertical, no recorded basis. */
  public static final SubjectPolicy NONE =
      new SubjectPolicy(OptionalInt.empty(), false, Optional.empty(), Optional.empty());

  private static final Pattern VERTICAL = Pattern.compile("[a-z0-9][a-z0-9-]{0,63}");

  /**
   * Checks ranges.
   *
   * @throws InvalidRequestException naming {@code retain_days}, {@code vertical} or {@code
   *     legal_basis}
   */
  public SubjectPolicy {
    Objects.requireNonNull(retainDays, "retainDays");
    Objects.requireNonNull(vertical, "vertical");
    Objects.requireNonNull(legalBasis, "legalBasis");
    if (retainDays.isPresent() && (retainDays.getAsInt() < 1 || retainDays.getAsInt() > 36_500)) {
      throw new InvalidRequestException(
          "retain_days", "expected 1 to 36500 days, found " + retainDays.getAsInt());
    }
    if (vertical.isPresent() && !VERTICAL.matcher(vertical.get()).matches()) {
      throw new InvalidRequestException(
          "vertical",
          "expected 1-64 lower-case letters, digits or dashes, found '" + vertical.get() + "'");
    }
    if (legalBasis.isPresent() && (legalBasis.get().isBlank() || legalBasis.get().length() > 256)) {
      throw new InvalidRequestException("legal_basis", "expected 1-256 characters, not blank");
    }
  }
}
