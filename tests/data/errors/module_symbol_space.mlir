module@ m {
}
