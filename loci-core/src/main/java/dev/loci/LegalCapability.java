package dev.loci;

import java.util.Objects;

/**
 * Proof that the caller holds the legal-tier capability, which every read of superseded versions
 * requires (version chains, {@code include_history}, history): superseded versions are exactly what
 * may hold personal data (pathway spec section 6.2, DESIGN.md section 7). Every read made with it
 * is recorded in the journal with its holder ({@link LegalReads}).
 *
 * <p>The embedded API trusts its host program, which names the holder; the HTTP server issues one
 * only to a credential with the {@code legal} role (holder: the token id), and the command line
 * only for a legal token from {@code loci.toml}.
 *
 * @param holder who holds it (a person, a credential id), for the record
 */
public record LegalCapability(String holder) {
  /**
   * Checks the holder.
   *
   * @throws IllegalArgumentException if {@code holder} is blank
   */
  public LegalCapability {
    Objects.requireNonNull(holder, "holder");
    if (holder.isBlank()) {
      throw new IllegalArgumentException("a legal capability needs a named holder");
    }
  }
}
