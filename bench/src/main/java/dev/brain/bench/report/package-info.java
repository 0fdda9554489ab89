/**
 * The benchmark report: {@link dev.brain.bench.report.Charts} renders the results in {@code
 * bench/results} as PNG charts and {@code summary.md}. Only {@code Charts} is public (its {@code
 * main} is what {@code bench/run report} starts); reading results, the machine and the summary's
 * sections are package-private.
 */
package dev.brain.bench.report;
