package dev.loci.spi;

import dev.loci.StorageException;

/**
 * Thrown by a shared journal ({@code PostgresJournal}) when batches that another writer appended
 * stand between this engine's last applied batch and the batches it tried to write. Nothing of the
 * refused batches was written. The engine catches up (applies the other writer's batches) and
 * decides the refused commands again, against the new state: this is how two servers racing for one
 * record cannot both win.
 */
public class JournalBehindException extends StorageException {
  private static final long serialVersionUID = 1L;

  /** Creates an exception that says where the journal's head is. */
  public JournalBehindException(String message) {
    super(message);
  }
}
