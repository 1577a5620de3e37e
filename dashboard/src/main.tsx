import { render } from 'solid-js/web'
import { App } from './App.js'
import './styles/app.css'

render(() => <App />, document.getElementById('root')!)
