module {
}
#x 5
