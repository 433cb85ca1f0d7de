/**
 * The {@code loci} command line: picocli commands that translate arguments into calls on the {@link
 * dev.loci.Loci} API and print the results, human-readable or as JSON ({@code --json}).
 *
 * <p>No domain logic lives here. Failures are translated to an exit code and one {@code loci:
 * <message>} line on stderr exactly once, in {@link dev.loci.cli.ErrorHandler}: 0 ok, 1 failure
 * (storage, corruption, I/O, damage found by {@code verify}), 2 usage error or invalid input.
 */
package dev.loci.cli;
