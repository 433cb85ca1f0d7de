package dev.loci;

/**
 * Stored records contradict an invariant that Loci's own commands never break, for example a
 * revision chain that loops back on itself. This only happens when data was edited by hand or
 * imported from a damaged file; the operator must act.
 */
public class CorruptDataException extends LociException {
  private static final long serialVersionUID = 1L;

  /** Creates an exception that says which invariant is broken and where. */
  public CorruptDataException(String message) {
    super(message);
  }
}
