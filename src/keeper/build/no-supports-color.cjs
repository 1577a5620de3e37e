// Bundle-time stand-in for the optional `supports-color` package (the `debug` package probes it
// inside a try): the single executable logs JSON, so colour detection has nothing to do.
module.exports = false
