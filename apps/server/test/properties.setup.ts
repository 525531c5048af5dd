import fc from 'fast-check';

/**
 * Every property test stops starting runs, and stops shrinking a failure, after 40 s: a failure is
 * then reported with its seed and the counterexample shrunk so far, well inside the tests' 60 s
 * timeout. A shrink of a slow integration property (a few seconds a run, on a loaded machine) took
 * 334 s: the timeout struck first and hid the counterexample. A property cut short without a failure
 * passes with the runs it made (each starts with its fixed examples).
 */
// The global parameters take no plugins, so the option (the plugin's older spelling) is set.
fc.configureGlobal({ interruptAfterTimeLimit: 40_000 });
