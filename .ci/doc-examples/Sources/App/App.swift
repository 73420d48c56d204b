/// The app target of the README's install example: it links AsyncQueue and nothing else.
public enum App {}
